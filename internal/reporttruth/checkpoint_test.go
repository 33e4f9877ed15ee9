package reporttruth

import (
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// TestCacheRefusedSentences: where a read could not drop the page cache
// (drop_caches refused, its files evicted instead), the report says so of
// the checkpoint, with how many of its read-backs, and of the file set;
// the sentences hold against the records, and a wrong count is found.
func TestCacheRefusedSentences(t *testing.T) {
	f, err := results.Open("../../reports/testdata/checkpoint")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := f.Records()
	if err != nil {
		t.Fatal(err)
	}
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
	r := report(t, f.Manifest, recs)
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
