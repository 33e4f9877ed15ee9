package qemu

import (
	"fmt"
	"io"
	"path"
	"strings"
)

// File type bits of a cpio entry's mode, as in stat(2).
const (
	modeDir  = 0o040000
	modeFile = 0o100000
	modeChar = 0o020000
)

// cpioWriter writes a cpio archive in the "newc" format, the one the
// kernel unpacks into its initial root filesystem. Parent directories are
// written before the first entry inside them, because the kernel creates
// entries in archive order.
type cpioWriter struct {
	w    io.Writer
	n    int64 // bytes written, for the 4-byte alignment
	ino  uint32
	dirs map[string]bool
	err  error
}

func newCPIOWriter(w io.Writer) *cpioWriter {
	return &cpioWriter{w: w, dirs: map[string]bool{".": true, "": true}}
}

// dir adds a directory and its parents.
func (c *cpioWriter) dir(name string) {
	name = clean(name)
	if c.dirs[name] {
		return
	}
	c.dir(path.Dir(name))
	c.dirs[name] = true
	c.entry(name, modeDir|0o755, 0, 0, nil)
}

// file adds a regular file with permission bits perm.
func (c *cpioWriter) file(name string, perm uint32, data []byte) {
	name = clean(name)
	c.dir(path.Dir(name))
	c.entry(name, modeFile|perm&0o7777, 0, 0, data)
}

// charDev adds a character device node.
func (c *cpioWriter) charDev(name string, perm, major, minor uint32) {
	name = clean(name)
	c.dir(path.Dir(name))
	c.entry(name, modeChar|perm&0o7777, major, minor, nil)
}

// close writes the trailer and returns the first error met.
func (c *cpioWriter) close() error {
	c.entry("TRAILER!!!", 0, 0, 0, nil)
	return c.err
}

func clean(name string) string { return strings.TrimPrefix(path.Clean("/"+name), "/") }

// entry writes one header, the name and the data, each padded to 4 bytes.
func (c *cpioWriter) entry(name string, mode, rdevMajor, rdevMinor uint32, data []byte) {
	nlink := uint32(1)
	if mode&modeDir != 0 {
		nlink = 2
	}
	c.ino++
	fields := []uint32{c.ino, mode, 0, 0, nlink, 0, uint32(len(data)), 0, 0, rdevMajor, rdevMinor, uint32(len(name) + 1), 0}
	header := "070701"
	for _, f := range fields {
		header += fmt.Sprintf("%08x", f)
	}
	c.write([]byte(header + name + "\x00"))
	c.pad()
	c.write(data)
	c.pad()
}

func (c *cpioWriter) write(b []byte) {
	if c.err != nil || len(b) == 0 {
		return
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.err = err
}

func (c *cpioWriter) pad() {
	if rem := c.n % 4; rem != 0 {
		c.write(make([]byte, 4-rem))
	}
}
