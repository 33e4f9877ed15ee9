package termview

import (
	"fmt"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/reports"
)

// fold counts the warnings of one kind.
type fold struct {
	// kind is the warning's kind; a warning of no kind is folded with
	// those of the same message.
	kind, message string
	count         int
	steps         map[int]bool
}

// warn counts a warning and reports whether it is the first of its kind.
func (v *View) warn(e engine.Event) bool {
	for _, f := range v.warnings {
		if f.kind == e.WarningKind && (f.kind != "" || f.message == e.Message) {
			f.count++
			f.steps[e.Index] = true
			return false
		}
	}
	v.warnings = append(v.warnings, &fold{kind: e.WarningKind, message: e.Message, count: 1, steps: map[int]bool{e.Index: true}})
	return true
}

// foldText is one kind's line, the kind painted: "⚠ host-bound: 585
// warnings in 585 steps, details in the report".
func (v *View) foldText(f *fold) string {
	head, rest := foldParts(f)
	return v.paint(yellow, head) + ": " + rest
}

// foldParts are a kind's line's words before and after its colon.
func foldParts(f *fold) (head, rest string) {
	what := f.message
	if f.kind != "" {
		what = reports.WarningWords(f.kind)
	}
	n := fmt.Sprintf("%d warning", f.count)
	if f.count > 1 {
		n += "s"
	}
	if len(f.steps) > 1 {
		n += fmt.Sprintf(" in %d steps", len(f.steps))
	}
	return "⚠ " + what, n + ", details in the report"
}

// foldSummary is a line per kind of warning the run gave.
func (v *View) foldSummary() []string {
	var lines []string
	for _, f := range v.warnings {
		lines = append(lines, v.foldText(f))
	}
	return lines
}
