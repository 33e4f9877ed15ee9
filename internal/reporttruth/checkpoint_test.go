package reporttruth

import (
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// checkpointRun is the manifest and records of reports/testdata/checkpoint:
// a checkpoint of two passes and a file set.
func checkpointRun(t *testing.T) (*results.Manifest, []*results.Record) {
	t.Helper()
	f, err := results.Open("../../reports/testdata/checkpoint")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := f.Records()
	if err != nil {
		t.Fatal(err)
	}
	return f.Manifest, recs
}

// TestCacheRefusedSentences: where a read could not drop the page cache
// (drop_caches refused, its files evicted instead), the report says so of
// the checkpoint, with how many of its read-backs, and of the file set;
// the sentences hold against the records, and a wrong count is found.
func TestCacheRefusedSentences(t *testing.T) {
	m, recs := checkpointRun(t)
	evicted := &metrics.CacheDrop{Method: metrics.CacheEvicted, Refused: "open /proc/sys/vm/drop_caches: permission denied"}
	byID := map[string]*results.Record{}
	for _, rec := range recs {
		byID[rec.StepID] = rec
		if rec.Source == "small_files" {
			rec.Result.CacheDrop = evicted
		}
	}
	for _, rec := range recs {
		if rec.Checkpoint != nil {
			first := rec.Checkpoint.Passes[0].Read
			first.CacheDrop = evicted
			byID[first.Step].Result.CacheDrop = evicted
		}
	}
	r := report(t, m, recs)
	for _, want := range []string{
		"llama3_8b on shm: the page cache could not be dropped before 1 of its read-backs, as drop_caches needs root",
		"shm / small_files: the page cache could not be dropped, as drop_caches needs root",
	} {
		if !strings.Contains(r.Markdown, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	for _, f := range Check(r) {
		t.Errorf("false in a true report: %s", f)
	}
	r.Markdown = strings.Replace(r.Markdown, "before 1 of its read-backs", "before 2 of its read-backs", 1)
	if found := Check(r); len(found) != 1 || found[0].Kind != "checkpoint cache" {
		t.Errorf("a wrong count of read-backs gave %v, want one falsehood of kind checkpoint cache", found)
	}
}

// TestCheckpointPasses: a checkpoint's write sentence says over how many
// passes its figures are a mean, "1 pass" when one completed, and a
// sentence that says another count, or a mean of one, is caught.
func TestCheckpointPasses(t *testing.T) {
	cases := []struct {
		name    string
		onePass bool
		edit    [2]string
		want    string
	}{
		{"two passes", false, [2]string{}, ""},
		{"one pass", true, [2]string{}, ""},
		{"three passes said", false, [2]string{"mean of 2 passes", "mean of 3 passes"}, "passes: says mean of 3 passes, the completed write steps has mean of 2 passes"},
		{"a mean of one", true, [2]string{"(the slowest rank, 1 pass)", "(the slowest rank, mean of 1 passes)"}, "passes: says mean of 1 passes, the completed write steps has 1 pass"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, recs := checkpointRun(t)
			for _, rec := range recs {
				if c := rec.Checkpoint; c != nil && tc.onePass {
					c.Passes = c.Passes[:1]
					c.Write, c.Read = c.Passes[0].Write, c.Passes[0].Read
				}
			}
			r := report(t, m, recs)
			if !tc.onePass && !strings.Contains(r.Markdown, "(the slowest rank, mean of 2 passes)") ||
				tc.onePass && !strings.Contains(r.Markdown, "(the slowest rank, 1 pass)") {
				t.Fatalf("the report does not say its passes as the case expects:\n%s", r.Markdown)
			}
			if tc.edit[0] != "" {
				r.Markdown = strings.Replace(r.Markdown, tc.edit[0], tc.edit[1], 1)
			}
			checkFalsehoods(t, r, tc.want)
		})
	}
}

// TestNoProfileOfItsOwn: a plan whose only steps that read and wrote are
// a checkpoint's passes (profile steps of the manifest, with their
// figures) says so under Results and in the Conclusion, where it said
// the run had no profile steps and that none finished with measurements;
// those words, said of it, are caught.
func TestNoProfileOfItsOwn(t *testing.T) {
	m, recs := checkpointRun(t)
	m.Steps = slices.DeleteFunc(m.Steps, func(s results.StepInfo) bool { return s.Source == "small_files" })
	recs = slices.DeleteFunc(recs, func(r *results.Record) bool { return r.Source == "small_files" })
	const says = "The plan has no profile of its own: its steps that read and wrote are its checkpoints' passes, whose figures are under Checkpoints."
	r := report(t, m, recs)
	for _, h := range []string{"## Results\n\n", "## Conclusion\n\n"} {
		if !strings.Contains(r.Markdown, h+says) {
			t.Errorf("%q is not followed by %q:\n%s", h, says, r.Markdown)
		}
	}
	checkFalsehoods(t, r, "")
	said := []struct{ under, words string }{
		{"## Results\n\n", "The run has no profile steps."},
		{"## Conclusion\n\n", "No profile step finished with measurements."},
	}
	for _, tc := range said {
		r.Markdown = strings.Replace(report(t, m, recs).Markdown, tc.under+says, tc.under+tc.words, 1)
		checkFalsehoods(t, r, "the run's 4 profile steps, its checkpoints' passes, read and wrote")
	}
	// a plan of its own profiles, one of which finished, does not say that
	// none did, nor that its steps are a checkpoint's
	m, recs = checkpointRun(t)
	r = report(t, m, recs)
	r.Markdown = strings.Replace(r.Markdown, "## Conclusion\n\n", "## Conclusion\n\nNo profile step finished with measurements.\n\n"+says+"\n\n", 1)
	checkFalsehoods(t, r, "1 profile step finished with measurements")
	checkFalsehoods(t, r, "of the manifest's 5 profile steps, 4 are checkpoints' passes")
}
