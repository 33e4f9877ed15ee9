package fio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"
)

// ReadError is a place in fio's output that cannot be read: a report the
// output ends inside, or one that is not JSON or not fio's.
type ReadError struct {
	// Offset is the place in bytes from the start of the output; Line and
	// Column count from 1, the column in bytes.
	Offset, Line, Column int
	// Problem says what is wrong there, and what to do.
	Problem string
	// Cut is set when the output ends inside the report at Offset:
	// keeping the Offset bytes before it keeps the reports before it.
	Cut bool
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("line %d, column %d (byte %d): %s", e.Line, e.Column, e.Offset, e.Problem)
}

// readErrorAt is a ReadError at offset off of out.
func readErrorAt(out []byte, off int, problem string) *ReadError {
	off = min(max(off, 0), len(out))
	line, col := position(out, off)
	return &ReadError{Offset: off, Line: line, Column: col, Problem: problem}
}

// position is the line and column, from 1, of offset off of out.
func position(out []byte, off int) (line, col int) {
	return bytes.Count(out[:off], []byte("\n")) + 1, off - bytes.LastIndexByte(out[:off], '\n')
}

// cutReport is the error of an output that ends inside the report at off.
func cutReport(out []byte, off int) *ReadError {
	e := readErrorAt(out, off, fmt.Sprintf("a fio report starts here but the output ends inside it, %d bytes later: it was cut short; use fio's complete output, or keep only the reports before it", len(out)-off))
	e.Cut = true
	return e
}

// damagedReport is the error of a report, at start of the scanned text,
// that is not JSON.
func damagedReport(out []byte, orig func(int) int, start int, err error) *ReadError {
	at := start + jsonErrorOffset(err)
	line, _ := position(out, orig(start))
	return readErrorAt(out, orig(at), fmt.Sprintf("the fio report that starts at line %d is not JSON here (%v); repair it or use fio's output as fio wrote it", line, err))
}

// reportSlack is how far apart the clocks of a report's time and of its
// jobs' runtimes may be.
const reportSlack = 100 * time.Millisecond

// ParseRuns reads every fio run of an output: the reports of several runs
// appended to one file (fio --output-format=json ... >> out.json), with
// the text fio prints before, between and after them. A report that the
// next one continues, a status report of the same run (--status-interval),
// is folded into it and counted in its Snapshots. Each run's Messages are
// the text before its reports, and for the last run the text after it.
// A report the output ends inside, or one that is not JSON or not fio's,
// is a *ReadError at its place: no run is left out unsaid.
func ParseRuns(out []byte) ([]*Output, error) {
	s := scan(out)
	switch {
	case s.damaged != nil:
		return nil, s.damaged
	case s.cut >= 0:
		return nil, cutReport(out, s.cut)
	case len(s.reports) == 0:
		return nil, noReportError(s)
	}
	var runs []*Output
	for _, f := range s.reports {
		o, err := decodeReport(f.raw)
		if err != nil {
			line, _ := position(out, f.offset)
			return nil, readErrorAt(out, s.orig(f.at+jsonErrorOffset(err)), fmt.Sprintf("the fio report that starts at line %d does not read as fio's (%v); repair it or use fio's output as fio wrote it", line, errors.Unwrap(err)))
		}
		o.Offset, o.Messages = f.offset, f.before
		if n := len(runs); n > 0 && continues(runs[n-1], o) {
			o.Messages = append(runs[n-1].Messages, o.Messages...)
			o.Snapshots = runs[n-1].Snapshots + 1
			runs[n-1] = o
			continue
		}
		runs = append(runs, o)
	}
	last := runs[len(runs)-1]
	last.Messages = append(last.Messages, s.after...)
	return runs, nil
}

// jsonErrorOffset is the byte of a JSON text at which decoding it failed,
// the last it read; 0 when the error does not say.
func jsonErrorOffset(err error) int {
	var syntax *json.SyntaxError
	var typed *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return max(int(syntax.Offset)-1, 0)
	case errors.As(err, &typed):
		return max(int(typed.Offset)-1, 0)
	}
	return 0
}

// continues reports whether next is a later report of prev's run, as
// --status-interval prints them: the same jobs, one of which had run
// before prev was written, since its runtime or its time since fio
// started (whole seconds, rounded up) exceeds the time between the two
// reports. A run appended after another started after the other's report
// was written, so none of its jobs can. Counts may go down within a run:
// fio resets them when the ramp ends.
func continues(prev, next *Output) bool {
	if len(prev.Jobs) != len(next.Jobs) {
		return false
	}
	gap := next.Time.Sub(prev.Time) + reportSlack
	ranBefore := false
	for i, p := range prev.Jobs {
		n := next.Jobs[i]
		if n.Name != p.Name || n.Host != p.Host || !maps.Equal(n.Options, p.Options) {
			return false
		}
		ranBefore = ranBefore || n.runtime > gap || n.elapsed > gap+time.Second
	}
	return ranBefore
}
