package main

import (
	"errors"
	"io"
	"sync"
	"syscall"
)

// closedWriter writes to a terminal or pipe until the reader goes away,
// then drops everything silently: a run whose output is piped into head,
// or whose terminal closed, goes on measuring and writes its reports,
// which are its real output.
type closedWriter struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

// detachOnClose wraps w so that writes after the reader closed succeed
// without effect.
func detachOnClose(w io.Writer) io.Writer {
	return &closedWriter{w: w}
}

func (c *closedWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return len(p), nil
	}
	n, err := c.w.Write(p)
	if err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.EIO) || errors.Is(err, syscall.EBADF)) {
		c.closed = true
		return len(p), nil
	}
	return n, err
}
