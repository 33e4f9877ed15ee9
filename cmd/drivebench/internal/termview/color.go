package termview

import "github.com/drivebench/drivebench/results"

// Colours mark what a reader must not miss, and nothing else: a pass, a
// failure, a warning. Everything else is the terminal's own colour.
const (
	red    = "31"
	green  = "32"
	yellow = "33"
)

var verdictColor = map[string]string{
	results.VerdictPass:  green,
	results.VerdictFail:  red,
	results.VerdictWarn:  yellow,
	results.VerdictError: red,
}

// ColorAllowed says whether a view on a terminal may use colour: not
// when NO_COLOR is set to anything (https://no-color.org) or TERM is
// dumb.
func ColorAllowed(terminal bool, getenv func(string) string) bool {
	return terminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// LiveAllowed says whether a terminal takes the redrawn view: a dumb
// terminal has no cursor movement, so it gets the log lines.
func LiveAllowed(terminal bool, getenv func(string) string) bool {
	return terminal && getenv("TERM") != "dumb"
}

// paint colours s when the view has colour and s a colour.
func (v *View) paint(color, s string) string {
	if !v.opt.Color || color == "" || s == "" {
		return s
	}
	return "\x1b[" + color + "m" + s + "\x1b[0m"
}
