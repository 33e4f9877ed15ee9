package reports

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/drivebench/drivebench/results"
)

// TestSummaryHookSections checks the vendor-acceptance run's summary.json:
// its table and chart follow the report's own sections.
func TestSummaryHookSections(t *testing.T) {
	s := mustLoad(t, "vendor-acceptance")
	h := s.SummaryHook
	if h == nil || h.Hook != "checks/summary.star:acceptance" || len(h.Sections) != 2 || h.Error != "" {
		t.Fatalf("summary hook = %+v", h)
	}
	chart := h.Sections[1].Chart
	if chart == nil || chart.File != "charts/random-i-o-scaling-summary-chart.svg" || len(chart.Series) != 2 {
		t.Fatalf("chart = %+v", chart)
	}
	files, err := Render(s, []string{FormatMarkdown})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(files, func(f File) bool { return f.Name == chart.File }) {
		t.Errorf("Render wrote no %s", chart.File)
	}
	md := string(files[0].Data)
	conclusion, sheet := strings.Index(md, "\n## Conclusion\n"), strings.Index(md, "\n## Spec sheet at a glance\n")
	if conclusion < 0 || sheet < conclusion {
		t.Errorf("the hook's section is not after the report's own (at %d, conclusion at %d)", sheet, conclusion)
	}
	for _, text := range []string{
		"9 figures: 1 pass, 3 warn, 5 skip.\n\n| entry | figure | claimed | measured | ratio | verdict |\n",
		"| rand_read_4k | iops | 1000000 IOPS | 87243 IOPS | 9% | warn |\n",
		"![Random I/O scaling](charts/random-i-o-scaling-summary-chart.svg)\n",
	} {
		if !strings.Contains(md, text) {
			t.Errorf("report.md lacks\n%s", text)
		}
	}
}

// TestSummaryHookError checks a hook that failed: a problem, once, that
// goes when the hook's outcome is removed.
func TestSummaryHookError(t *testing.T) {
	s := mustLoad(t, "quickstart")
	failed := &results.Summary{
		Schema: results.SummarySchema, Hook: "checks/summary.star:acceptance",
		Error: `key "x" not found`, Where: "checks/summary.star:12:3",
	}
	before := len(s.Problems)
	s.SetSummaryHook(failed)
	s.SetSummaryHook(failed)
	if len(s.Problems) != before+1 {
		t.Fatalf("%d problems, want %d", len(s.Problems), before+1)
	}
	_, md := renderSummary(t, s)
	row := `| summary hook checks/summary.star:acceptance | failed | checks/summary.star:12:3: key "x" not found (the report lacks the hook's sections) |`
	if !strings.Contains(md, row+"\n") {
		t.Errorf("report.md lacks the problem\n%s", row)
	}
	s.SetSummaryHook(nil)
	if len(s.Problems) != before || s.SummaryHook != nil {
		t.Errorf("after removing the hook's outcome: %d problems, hook %+v", len(s.Problems), s.SummaryHook)
	}
}

// copyRun copies a fixture run into a temporary folder.
func copyRun(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSummaryFileUnreadable checks that a summary.json the report cannot
// read is a note, and the rest of the report stands.
func TestSummaryFileUnreadable(t *testing.T) {
	tests := []struct {
		name, content, note string
	}{
		{"not JSON", "{", "the summary hook's sections are left out: summary.json: unexpected end of JSON input"},
		{"another version", `{"schema": "drivebench/summary/v9"}`,
			`the summary hook's sections are left out: summary.json: schema "drivebench/summary/v9" is not "drivebench/summary/v1": this folder was written by another version of drivebench`},
		{"wrong shape", `{"schema": "drivebench/summary/v1", "sections": {}}`, "the summary hook's sections are left out: summary.json: json: cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyRun(t, "quickstart")
			if err := os.WriteFile(filepath.Join(dir, results.SummaryFile), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Notes) != 1 || !strings.HasPrefix(s.Notes[0], tt.note) {
				t.Errorf("notes = %q, want one starting %q", s.Notes, tt.note)
			}
			if s.SummaryHook != nil || len(s.Results) == 0 {
				t.Errorf("hook %+v, %d tables", s.SummaryHook, len(s.Results))
			}
		})
	}
}

func TestHookText(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"Plain text.", "<p>Plain text.</p>\n"},
		{"One\nparagraph\n\nTwo", "<p>One paragraph</p>\n<p>Two</p>\n"},
		{"Has `code` and **strong** words", "<p>Has <code>code</code> and <strong>strong</strong> words</p>\n"},
		{"Unclosed `tick and ** stars", "<p>Unclosed `tick and ** stars</p>\n"},
		{"Empty `` and ****", "<p>Empty `` and ****</p>\n"},
		{"Intro:\n- one\n* two\n  continued\n\nAfter", "<p>Intro:</p>\n<ul>\n<li>one</li>\n<li>two continued</li>\n</ul>\n<p>After</p>\n"},
		{"## Heading\nText", "<p><strong>Heading</strong></p>\n<p>Text</p>\n"},
		{"<b>raw</b> & co", "<p>&lt;b&gt;raw&lt;/b&gt; &amp; co</p>\n"},
		{"\n\n  \n", ""},
	}
	for _, tt := range tests {
		d := &document{}
		hookText(d, tt.text)
		var b strings.Builder
		for _, blk := range d.blocks {
			htmlBlock(&b, blk, "", nil)
		}
		if b.String() != tt.want {
			t.Errorf("hookText(%q)\n got %q\nwant %q", tt.text, b.String(), tt.want)
		}
	}
}

// FuzzHookText checks that any text lays out without a panic and keeps
// every character that is not Markdown's own. Text from summary.json is
// valid UTF-8, as JSON decoding makes it.
func FuzzHookText(f *testing.F) {
	for _, seed := range []string{"", "a `b` **c**", "- x\n- y\n\n# z", "``**``**", "\r\n*"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			t.Skip("not UTF-8")
		}
		d := &document{}
		hookText(d, text)
		var kept strings.Builder
		for _, blk := range d.blocks {
			for _, s := range blk.text {
				kept.WriteString(s.text)
			}
			for _, item := range blk.items {
				for _, s := range item {
					kept.WriteString(s.text)
				}
			}
		}
		strip := func(s string) string {
			return strings.Map(func(r rune) rune {
				if unicode.IsSpace(r) || strings.ContainsRune("`*#-+", r) {
					return -1
				}
				return r
			}, s)
		}
		if got, want := strip(kept.String()), strip(text); got != want {
			t.Errorf("hookText(%q) kept %q, want %q", text, got, want)
		}
	})
}
