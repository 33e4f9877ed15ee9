package plan

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/mitchellh/go-wordwrap"
)

// WriteDiagnostics renders diags for a person: the summary, the place as
// file:line:col (which editors and terminals turn into links), the source
// line with the offending text underlined, and the detail that says what
// to do. width wraps the detail; 0 leaves it unwrapped.
func (s *Sources) WriteDiagnostics(w io.Writer, diags hcl.Diagnostics, width uint, color bool) error {
	bw := bufio.NewWriter(w)
	for _, d := range diags {
		s.writeDiagnostic(bw, d, width, color)
	}
	return bw.Flush()
}

func (s *Sources) writeDiagnostic(w *bufio.Writer, d *hcl.Diagnostic, width uint, color bool) {
	severity := "Error"
	if d.Severity == hcl.DiagWarning {
		severity = "Warning"
	}
	if color {
		code := "31"
		if d.Severity == hcl.DiagWarning {
			code = "33"
		}
		severity = "\x1b[1;" + code + "m" + severity + "\x1b[0m"
	}
	fmt.Fprintf(w, "%s: %s\n", severity, d.Summary)
	if d.Subject != nil {
		s.writePlace(w, *d.Subject)
	}
	if d.Detail != "" {
		detail := d.Detail
		if width > 2 {
			detail = wordwrap.WrapString(detail, width-2)
		}
		for _, line := range strings.Split(detail, "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	w.WriteString("\n")
}

// writePlace prints "at file:line:col, in <block>" and the source line
// with the subject underlined.
func (s *Sources) writePlace(w *bufio.Writer, r hcl.Range) {
	fmt.Fprintf(w, "  at %s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
	file := s.Files[r.Filename]
	if file == nil {
		w.WriteString("\n")
		return
	}
	if ctx := hcled.ContextString(file, r.Start.Byte); ctx != "" {
		fmt.Fprintf(w, ", in %s", ctx)
	}
	w.WriteString("\n\n")
	raw := sourceLine(file.Bytes, r.Start.Line)
	prefix := fmt.Sprintf("  %4d | ", r.Start.Line)
	fmt.Fprintf(w, "%s%s\n", prefix, expandTabs(raw))
	if r.End.Line == r.Start.Line && r.End.Column > r.Start.Column {
		before := []rune(raw)[:min(r.Start.Column-1, utf8.RuneCountInString(raw))]
		pad := strings.Repeat(" ", len(prefix)+utf8.RuneCountInString(expandTabs(string(before))))
		fmt.Fprintf(w, "%s%s\n", pad, strings.Repeat("^", r.End.Column-r.Start.Column))
	}
	w.WriteString("\n")
}

// sourceLine returns line n (1-based) of src.
func sourceLine(src []byte, n int) string {
	lines := bytes.Split(src, []byte("\n"))
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimRight(string(lines[n-1]), "\r")
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }
