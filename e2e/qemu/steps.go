package qemu

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// guestStep is one command the guest ran: its exit status and output.
type guestStep struct {
	name   string
	rc     int
	stdout string
	stderr string
}

// Markers around each step on the results port, one per line:
//
//	=== BEGIN <name> <exit status>
//	<stdout>
//	=== STDERR <name>
//	<stderr>
//	=== END <name>
const (
	markBegin  = "=== BEGIN "
	markStderr = "=== STDERR "
	markEnd    = "=== END "
)

// parseSteps reads the steps from the results port's output. Carriage
// returns, which the guest's tty adds, are dropped. A step cut short, as
// when the guest dies, ends the parse with an error; the steps before it
// are returned.
func parseSteps(r io.Reader) (map[string]*guestStep, error) {
	steps := map[string]*guestStep{}
	var cur *guestStep
	var out *strings.Builder
	var stdout, stderr strings.Builder
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		var err error
		switch {
		case strings.HasPrefix(text, markBegin):
			if cur != nil {
				return steps, fmt.Errorf("line %d: step %q begins inside step %q", line, text[len(markBegin):], cur.name)
			}
			cur, err = parseBegin(text[len(markBegin):])
			stdout.Reset()
			stderr.Reset()
			out = &stdout
		case strings.HasPrefix(text, markStderr):
			err = checkMarker(cur, text[len(markStderr):], out == &stdout)
			out = &stderr
		case strings.HasPrefix(text, markEnd):
			err = checkMarker(cur, text[len(markEnd):], out == &stderr)
			if err == nil {
				cur.stdout, cur.stderr = stdout.String(), stderr.String()
				steps[cur.name] = cur
				cur = nil
			}
		case cur != nil:
			out.WriteString(text + "\n")
		}
		if err != nil {
			return steps, fmt.Errorf("line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return steps, err
	}
	if cur != nil {
		return steps, fmt.Errorf("step %q has no end: the guest stopped while it ran", cur.name)
	}
	return steps, nil
}

// parseBegin reads "<name> <exit status>".
func parseBegin(s string) (*guestStep, error) {
	name, rc, ok := strings.Cut(s, " ")
	code, err := strconv.Atoi(rc)
	if !ok || name == "" || err != nil {
		return nil, fmt.Errorf("%q is not %q followed by a step name and an exit status", markBegin+s, markBegin)
	}
	return &guestStep{name: name, rc: code}, nil
}

// checkMarker checks that a STDERR or END marker closes the open step,
// in order.
func checkMarker(cur *guestStep, name string, inOrder bool) error {
	switch {
	case cur == nil:
		return fmt.Errorf("marker for step %q outside any step", name)
	case name != cur.name:
		return fmt.Errorf("marker for step %q inside step %q", name, cur.name)
	case !inOrder:
		return fmt.Errorf("step %q has its markers out of order", name)
	}
	return nil
}
