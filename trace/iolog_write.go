package trace

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"
)

// IologWriter writes I/Os as fio iolog version 3, the format fio's
// read_iolog replays: the version line, add and open lines for the file,
// one line an I/O with its time in microseconds, and a close line.
type IologWriter struct {
	w    *bufio.Writer
	file string
	last time.Duration
	line []byte
	err  error
}

// NewIologWriter starts an iolog of I/Os to file (a path fio opens when
// it replays the log, or replaces with replay_redirect).
func NewIologWriter(w io.Writer, file string) *IologWriter {
	l := &IologWriter{w: bufio.NewWriter(w), file: file}
	l.printf("fio version 3 iolog\n0 %s add\n0 %s open\n", file, file)
	return l
}

// iologActions are the iolog actions of each Op (flush as fio's sync).
var iologActions = [...]string{Read: "read", Write: "write", Flush: "sync", Discard: "trim"}

// Write writes one I/O; At is its time since the start of the log.
func (l *IologWriter) Write(x IO) error {
	l.last = max(l.last, x.At)
	b := strconv.AppendInt(l.line[:0], x.At.Microseconds(), 10)
	b = append(append(append(append(b, ' '), l.file...), ' '), iologActions[x.Op]...)
	b = strconv.AppendInt(append(b, ' '), x.Offset, 10)
	b = strconv.AppendInt(append(b, ' '), x.Size, 10)
	l.line = append(b, '\n')
	if l.err == nil {
		_, l.err = l.w.Write(l.line)
	}
	return l.err
}

// Close writes the close line, at the last I/O's time, and flushes.
func (l *IologWriter) Close() error {
	l.printf("%d %s close\n", l.last.Microseconds(), l.file)
	if l.err == nil {
		l.err = l.w.Flush()
	}
	return l.err
}

func (l *IologWriter) printf(format string, args ...any) {
	if l.err == nil {
		_, l.err = fmt.Fprintf(l.w, format, args...)
	}
}
