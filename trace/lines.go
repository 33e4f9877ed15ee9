package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// lines reads a text trace line by line, counting lines for errors. A
// line longer than the read buffer is an error, not a reason to grow:
// no trace line is that long, and a binary file must not be read whole.
type lines struct {
	name string
	r    *bufio.Reader
	n    int
}

// next returns the next line without its end (\n or \r\n), io.EOF after
// the last. The slice is valid until the next call.
func (l *lines) next() ([]byte, error) {
	line, err := l.r.ReadSlice('\n')
	if len(line) == 0 && err == io.EOF {
		return nil, io.EOF
	}
	l.n++
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, l.errorf("the line is longer than %d KiB: this is not a text trace, or it is damaged", readBuffer>>10)
	case err != nil && err != io.EOF:
		return nil, l.errorf("%v", err)
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), nil
}

func (l *lines) errorf(format string, args ...any) error {
	return &Error{Name: l.name, Line: l.n, Msg: fmt.Sprintf(format, args...)}
}

func (l *lines) place(msg string) error { return &Error{Name: l.name, Line: l.n, Msg: msg} }

// uint parses a field that must be a whole number of at most max,
// naming the field in the error.
func (l *lines) uint(field string, text []byte, max uint64) (int64, error) {
	v, err := strconv.ParseUint(string(text), 10, 64)
	if err != nil || v > max {
		return 0, l.errorf("%s %q is not a whole number from 0 to %d", field, text, max)
	}
	return int64(v), nil
}
