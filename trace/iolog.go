package trace

import (
	"bufio"
	"bytes"
	"math"
	"time"
)

// fio writes its version line first (iolog.c, init_iolog_write); older
// fio wrote version 2, 3.31 and later write 3.
var iologHeads = map[string]Format{
	"fio version 2 iolog": IologV2,
	"fio version 3 iolog": IologV3,
}

func detectIolog(head []byte) (Format, bool) {
	for text, f := range iologHeads {
		if bytes.HasPrefix(head, []byte(text)) {
			return f, true
		}
	}
	return "", false
}

// iologDecoder reads fio's iolog: after the version line, "FILE ACTION"
// lines for files (add, open, close) and "FILE ACTION OFFSET LENGTH" for
// I/Os, each preceded in version 3 by the time it was issued in
// microseconds since the start (fio's HOWTO, "Trace file format";
// iolog.c's log_io_u writes utime_since_now). Version 2 has no times; its
// wait action delays the I/Os after it by OFFSET microseconds.
type iologDecoder struct {
	lines
	v3   bool
	wait time.Duration // v2: the sum of the waits so far
}

func newIologDecoder(name string, r *bufio.Reader, f Format) decoder {
	return &iologDecoder{lines: lines{name: name, r: r}, v3: f == IologV3}
}

// iologOps are fio's I/O actions (io_ddir_name, read_iolog).
var iologOps = map[string]Op{
	"read":     Read,
	"write":    Write,
	"sync":     Flush,
	"datasync": Flush,
	"trim":     Discard,
}

var iologFileActions = map[string]bool{"add": true, "open": true, "close": true}

func (d *iologDecoder) next() (IO, error) {
	for {
		line, err := d.lines.next()
		if err != nil {
			return IO{}, err
		}
		if d.n == 1 {
			continue // the version line, which Detect read
		}
		io, ok, err := d.parse(bytes.Fields(line))
		if err != nil || ok {
			return io, err
		}
	}
}

// parse decodes one line's fields; ok is false for a line that is no
// I/O (a file action, a blank line, a v2 wait).
func (d *iologDecoder) parse(f [][]byte) (io IO, ok bool, err error) {
	if len(f) == 0 {
		return IO{}, false, nil
	}
	at := d.wait
	if d.v3 {
		us, err := d.uint("timestamp (microseconds)", f[0], math.MaxInt64/1000)
		if err != nil {
			return IO{}, false, err
		}
		at, f = time.Duration(us)*time.Microsecond, f[1:]
	}
	switch len(f) {
	case 2:
		if !iologFileActions[string(f[1])] {
			return IO{}, false, d.errorf("file action %q is not add, open or close (fio iolog: FILE ACTION)", f[1])
		}
		return IO{}, false, nil
	case 4:
		return d.ioLine(at, f)
	}
	return IO{}, false, d.errorf("%d fields where an iolog line has %s", len(f), d.layout())
}

func (d *iologDecoder) layout() string {
	if d.v3 {
		return "3 (TIME FILE ACTION) or 5 (TIME FILE ACTION OFFSET LENGTH)"
	}
	return "2 (FILE ACTION) or 4 (FILE ACTION OFFSET LENGTH)"
}

// addWait adds a v2 wait of us microseconds to the time of the I/Os after it.
func (d *iologDecoder) addWait(us int64) error {
	if d.v3 {
		return d.errorf("wait is not allowed in iolog version 3, whose lines carry their time")
	}
	w := time.Duration(us) * time.Microsecond
	if us > math.MaxInt64/1000 || d.wait > math.MaxInt64-w {
		return d.errorf("the waits add up to more than %v", time.Duration(math.MaxInt64))
	}
	d.wait += w
	return nil
}

func (d *iologDecoder) ioLine(at time.Duration, f [][]byte) (IO, bool, error) {
	off, err := d.uint("offset", f[2], math.MaxInt64)
	if err != nil {
		return IO{}, false, err
	}
	size, err := d.uint("length", f[3], math.MaxUint32)
	if err != nil {
		return IO{}, false, err
	}
	action := string(f[1])
	if action == "wait" {
		return IO{}, false, d.addWait(off)
	}
	op, ok := iologOps[action]
	if !ok {
		return IO{}, false, d.errorf("action %q is not read, write, sync, datasync, trim or wait", action)
	}
	if op == Flush {
		off, size = 0, 0
	}
	return IO{At: at, Op: op, Offset: off, Size: size, Device: string(f[0])}, true, nil
}
