package trace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Op is what an I/O does.
type Op uint8

// The operations a trace holds. Flush is fio's sync and datasync, a
// block trace's flush request; Discard is trim.
const (
	Read Op = iota + 1
	Write
	Flush
	Discard
)

var opNames = [...]string{Read: "read", Write: "write", Flush: "flush", Discard: "discard"}

func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", o)
}

// IO is one I/O of a trace.
type IO struct {
	// At is when the I/O was issued, since the trace's first I/O; 0 for
	// all I/Os of a trace without times (fio iolog v2 without waits).
	At time.Duration
	Op Op
	// Offset and Size are in bytes; 0 for a flush.
	Offset, Size int64
	// Device names the disk or volume of a multi-disk trace (MSR's
	// host_disk, Alibaba's device_id, Tencent's VolumeID, blkparse's
	// major:minor, the file an iolog names); "" where the format has one.
	Device string
	// Latency is the time from issue to completion where the trace
	// records it (MSR's ResponseTime, blkparse's completion events), else 0.
	Latency time.Duration
}

// End is the byte after the I/O.
func (io IO) End() int64 { return io.Offset + io.Size }

// Format names a trace format.
type Format string

// The formats Open detects.
const (
	IologV2  Format = "fio-iolog-v2"
	IologV3  Format = "fio-iolog-v3"
	Blkparse Format = "blkparse"
	MSR      Format = "msr-cambridge"
	Alibaba  Format = "alibaba"
	Tencent  Format = "tencent-cbs"
)

// Timed reports whether the format records when each I/O was issued.
func (f Format) Timed() bool { return f != IologV2 }

// HasLatency reports whether the format records completions, so that
// queue depth can be read from it.
func (f Format) HasLatency() bool { return f == MSR || f == Blkparse }

// Error is a trace that cannot be read, with the place: a line of a text
// trace or a byte offset of a binary one.
type Error struct {
	Name   string
	Line   int   // 1-based; 0 for a binary format
	Offset int64 // byte offset, for a binary format
	Msg    string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	case e.Offset >= 0:
		return fmt.Sprintf("%s: byte %d: %s", e.Name, e.Offset, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Name, e.Msg)
}

// decoder is one format's reader: next gives the next I/O with At as the
// format's own time, in nanoseconds from its epoch.
type decoder interface {
	next() (IO, error)
}

// decoders makes each format's decoder.
var decoders = map[Format]func(name string, r *bufio.Reader, f Format) decoder{
	IologV2:  newIologDecoder,
	IologV3:  newIologDecoder,
	Blkparse: newBlkparseDecoder,
	MSR:      newCSVDecoder,
	Alibaba:  newCSVDecoder,
	Tencent:  newCSVDecoder,
}

// File is an open trace, read one I/O at a time.
type File struct {
	name    string
	format  Format
	dec     decoder
	closer  io.Closer
	started bool
	origin  time.Duration // the first I/O's time
	last    time.Duration
}

// gzipMagic starts a gzip file (RFC 1952).
var gzipMagic = []byte{0x1f, 0x8b}

// readBuffer is the read-ahead of a trace: all Open holds of the file.
const readBuffer = 256 << 10

// Open opens the trace at path, its format detected from its content.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	t, err := NewReader(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	t.closer = f
	return t, nil
}

// NewReader reads a trace from r, named name in errors, its format
// detected from its first bytes. A gzip-compressed trace, as the public
// archives ship them (usr_0.csv.gz), is decompressed as it is read; its
// errors name places in the decompressed data.
func NewReader(name string, r io.Reader) (*File, error) {
	br := bufio.NewReaderSize(r, readBuffer)
	if head, _ := br.Peek(2); bytes.Equal(head, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{Name: name, Offset: -1, Msg: "a gzip file that cannot be read: " + err.Error()}
		}
		name += " (decompressed)"
		br = bufio.NewReaderSize(zr, readBuffer)
	}
	format, err := Detect(br)
	if err != nil {
		return nil, &Error{Name: name, Offset: -1, Msg: err.Error()}
	}
	return &File{name: name, format: format, dec: decoders[format](name, br, format)}, nil
}

// Format is the trace's format.
func (t *File) Format() Format { return t.format }

// Name is the name the trace was opened by.
func (t *File) Name() string { return t.name }

// Next returns the next I/O, and io.EOF after the last. The I/Os come in
// time order: one issued before the one that came before it is an error.
func (t *File) Next() (IO, error) {
	io, err := t.dec.next()
	if err != nil {
		return IO{}, err
	}
	if !t.started {
		t.started, t.origin = true, io.At
	}
	at := io.At - t.origin
	if at < t.last {
		return IO{}, t.outOfOrder(at)
	}
	t.last, io.At = at, at
	return io, nil
}

func (t *File) outOfOrder(at time.Duration) error {
	msg := fmt.Sprintf("this I/O comes at %v, before the one above it (%v): a trace must be in time order (sort it by its time column)", at, t.last)
	if p, ok := t.dec.(interface{ place(string) error }); ok {
		return p.place(msg)
	}
	return &Error{Name: t.name, Offset: -1, Msg: msg}
}

// Close closes the file Open opened.
func (t *File) Close() error {
	if t.closer == nil {
		return nil
	}
	return t.closer.Close()
}

// errEmpty is an empty trace.
var errEmpty = errors.New("the file is empty: a trace holds at least its first line or record")
