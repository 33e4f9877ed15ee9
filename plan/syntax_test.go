package plan

import (
	"testing"
)

// TestUnterminated: a comment or heredoc that is never closed is reported
// where it starts, alone (a heredoc's opening line cannot carry the
// "# ERROR:" comment of the invalid-plan corpus, hence this table).
func TestUnterminated(t *testing.T) {
	for _, tc := range []struct {
		name, src, summary string
		line, col          int
	}{
		{"comment", "a = 1\n/* never closed\nb = 2\n", "Unterminated Comment", 2, 1},
		{"heredoc", "locals {\n  note = <<EOT\nnever closed\n}\n", "Unterminated Heredoc", 2, 10},
		{"indented heredoc", "a = <<-EOT\n  never closed\n", "Unterminated Heredoc", 1, 5},
		{"closed heredoc", "a = <<EOT\nclosed\nEOT\n", "", 0, 0},
		{"division", "a = 4 / 2 * 3\n", "", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseConfig([]byte(tc.src), "x.hcl")
			if tc.summary == "" {
				if diags.HasErrors() {
					t.Fatalf("unexpected diagnostics: %v", diags)
				}
				return
			}
			if len(diags) != 1 || diags[0].Summary != tc.summary ||
				diags[0].Subject.Start.Line != tc.line || diags[0].Subject.Start.Column != tc.col {
				t.Fatalf("got %v, want one %q at %d:%d", diags, tc.summary, tc.line, tc.col)
			}
		})
	}
}
