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

// DiagnosticJSONVersion is the version of the JSON form of diagnostics
// (validate -json, plan -json): a new field keeps it, a renamed or removed
// one changes it.
const DiagnosticJSONVersion = "1.0"

// JSONDiagnostic is a diagnostic for programs (editors, CI annotations),
// in the shape terraform validate -json uses.
type JSONDiagnostic struct {
	Severity string       `json:"severity"` // "error" or "warning"
	Summary  string       `json:"summary"`
	Detail   string       `json:"detail,omitempty"`
	Range    *JSONRange   `json:"range,omitempty"`
	Snippet  *JSONSnippet `json:"snippet,omitempty"`
}

// JSONRange is a source range; lines and columns count from 1, bytes
// from 0, and the end is exclusive.
type JSONRange struct {
	Filename string  `json:"filename"`
	Start    JSONPos `json:"start"`
	End      JSONPos `json:"end"`
}

// JSONPos is a place in a file.
type JSONPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// JSONSnippet is the source line a diagnostic points at.
type JSONSnippet struct {
	Context   string `json:"context,omitempty"` // the enclosing block, such as profile "read"
	Code      string `json:"code"`
	StartLine int    `json:"start_line"`
	// HighlightStartOffset and HighlightEndOffset are the subject's byte
	// offsets in Code.
	HighlightStartOffset int `json:"highlight_start_offset"`
	HighlightEndOffset   int `json:"highlight_end_offset"`
}

// JSONDiagnostics converts diags to their JSON form.
func (s *Sources) JSONDiagnostics(diags hcl.Diagnostics) []JSONDiagnostic {
	out := make([]JSONDiagnostic, 0, len(diags))
	for _, d := range diags {
		jd := JSONDiagnostic{Severity: "error", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagWarning {
			jd.Severity = "warning"
		}
		if d.Subject != nil {
			r := *d.Subject
			jd.Range = &JSONRange{Filename: r.Filename,
				Start: JSONPos{Line: r.Start.Line, Column: r.Start.Column, Byte: r.Start.Byte},
				End:   JSONPos{Line: r.End.Line, Column: r.End.Column, Byte: r.End.Byte}}
			jd.Snippet = s.snippet(r)
		}
		out = append(out, jd)
	}
	return out
}

func (s *Sources) snippet(r hcl.Range) *JSONSnippet {
	file := s.Files[r.Filename]
	if file == nil {
		return nil
	}
	code := sourceLine(file.Bytes, r.Start.Line)
	lineStart := r.Start.Byte - (r.Start.Column - 1)
	if lineStart < 0 || r.Start.Column-1 > len(code) {
		return nil
	}
	// Columns count characters; offsets count bytes.
	start := len(string([]rune(code)[:min(r.Start.Column-1, utf8.RuneCountInString(code))]))
	end := len(code)
	if r.End.Line == r.Start.Line {
		end = min(start+(r.End.Byte-r.Start.Byte), len(code))
	}
	return &JSONSnippet{Context: hcled.ContextString(file, r.Start.Byte), Code: code, StartLine: r.Start.Line,
		HighlightStartOffset: start, HighlightEndOffset: end}
}
