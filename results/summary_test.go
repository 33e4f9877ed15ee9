package results

import (
	"testing"
)

// TestWriteSummaryNeverReplacesOutputWithFailure: a failed call keeps
// the sections an earlier call returned, beside its error; a success, or
// a failure after a failure, replaces what was there.
func TestWriteSummaryNeverReplacesOutputWithFailure(t *testing.T) {
	ok := func(title string) *Summary {
		return &Summary{Hook: "s.star:summary", Sections: []SummarySection{{Title: title}}}
	}
	failed := func(msg string) *Summary { return &Summary{Hook: "s.star:summary", Error: msg, Where: "s.star:2:3"} }
	tests := []struct {
		name     string
		calls    []*Summary
		sections string // titles of the sections left
		err      string
		kept     bool
	}{
		{"success replaces success", []*Summary{ok("a"), ok("b")}, "b", "", false},
		{"failure keeps success", []*Summary{ok("a"), failed("boom")}, "a", "boom", true},
		{"failure keeps kept", []*Summary{ok("a"), failed("boom"), failed("again")}, "a", "again", true},
		{"success after kept", []*Summary{ok("a"), failed("boom"), ok("c")}, "c", "", false},
		{"failure replaces failure", []*Summary{failed("boom"), failed("again")}, "", "again", false},
		{"first failure", []*Summary{failed("boom")}, "", "boom", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var last *Summary
			for _, s := range tt.calls {
				var err error
				if last, err = WriteSummary(dir, s); err != nil {
					t.Fatal(err)
				}
			}
			read, err := ReadSummary(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []*Summary{last, read} {
				titles := ""
				for _, sec := range s.Sections {
					titles += sec.Title
				}
				if titles != tt.sections || s.Error != tt.err || s.Kept != tt.kept {
					t.Errorf("sections %q, error %q, kept %v; want %q, %q, %v", titles, s.Error, s.Kept, tt.sections, tt.err, tt.kept)
				}
			}
		})
	}
}
