package trace

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

// The blk_io_trace record (linux/blktrace_api.h): 48 bytes, then pdu_len
// bytes of payload; magic is blkMagic with the version in its low byte.
const (
	blkRecord  = 48
	blkMagic   = 0x65617400
	blkVersion = 7
)

// Actions (low byte of action) and categories (its high 16 bits).
const (
	blkActQueue    = 1
	blkActIssue    = 7
	blkActComplete = 8

	blkCatWrite   = 1 << 1
	blkCatFlush   = 1 << 2
	blkCatPC      = 1 << 9
	blkCatNotify  = 1 << 10
	blkCatDiscard = 1 << 13
)

// maxPending bounds the issued I/Os a blkparse trace holds back while
// waiting for their completions: past it the oldest goes out without a
// latency, so memory stays bounded whatever the trace.
const maxPending = 1 << 16

func detectBlkparse(head []byte) bool {
	if len(head) < 4 {
		return false
	}
	_, ok := blkOrder(head)
	return ok
}

// blkOrder tells the byte order of a record from its magic.
func blkOrder(rec []byte) (binary.ByteOrder, bool) {
	for _, o := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		if o.Uint32(rec)&0xffffff00 == blkMagic {
			return o, true
		}
	}
	return nil, false
}

// blkEvent is the part of a record the reader uses.
type blkEvent struct {
	time, sector          uint64
	bytes, action, device uint32
}

type pendingIO struct {
	io        IO
	dev       uint32
	sector    uint64
	issued    uint64
	completed bool
}

// blkparseDecoder reads what blkparse -d writes: the records of every
// CPU merged in time order. Each issue (D) event is an I/O, the request
// as the driver got it, after merging, so merged bios count once; a
// completion (C) event of the same device and sector gives its latency.
// Queue (Q), merge, plug and notify events are skipped.
type blkparseDecoder struct {
	name    string
	r       *bufio.Reader
	off     int64 // offset of the next record
	order   binary.ByteOrder
	pending []pendingIO
	head    int
	eof     bool
	issues  int
	queues  int
}

func newBlkparseDecoder(name string, r *bufio.Reader, _ Format) decoder {
	return &blkparseDecoder{name: name, r: r}
}

func (d *blkparseDecoder) errorAt(off int64, format string, args ...any) error {
	return &Error{Name: d.name, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (d *blkparseDecoder) place(msg string) error {
	return &Error{Name: d.name, Offset: d.off, Msg: msg}
}

func (d *blkparseDecoder) next() (IO, error) {
	for {
		if d.head < len(d.pending) && (d.pending[d.head].completed || d.eof || len(d.pending)-d.head >= maxPending) {
			return d.pop(), nil
		}
		if d.eof {
			return IO{}, d.atEnd()
		}
		if err := d.read(); err != nil {
			return IO{}, err
		}
	}
}

// atEnd is io.EOF, or an error for a trace without issue events.
func (d *blkparseDecoder) atEnd() error {
	if d.issues == 0 && d.queues > 0 {
		return d.errorAt(d.off, "no issue (D) events among %d queue (Q) events: drivebench replays the requests the driver got; trace them too (blktrace -a issue -a complete)", d.queues)
	}
	return io.EOF
}

func (d *blkparseDecoder) pop() IO {
	p := d.pending[d.head]
	d.head++
	if d.head > len(d.pending)/2 {
		d.pending = append(d.pending[:0], d.pending[d.head:]...)
		d.head = 0
	}
	return p.io
}

// read reads one record and acts on it.
func (d *blkparseDecoder) read() error {
	at := d.off
	ev, err := d.record()
	if errors.Is(err, io.EOF) {
		d.eof = true
		return nil
	}
	if err != nil {
		return err
	}
	cat := ev.action >> 16
	switch {
	case cat&blkCatNotify != 0, cat&blkCatPC != 0:
		return nil
	case ev.action&0xff == blkActQueue:
		d.queues++
	case ev.action&0xff == blkActIssue:
		return d.issue(at, ev, cat)
	case ev.action&0xff == blkActComplete:
		d.complete(ev)
	}
	return nil
}

// record reads the next record and skips its payload.
func (d *blkparseDecoder) record() (blkEvent, error) {
	var rec [blkRecord]byte
	n, err := io.ReadFull(d.r, rec[:])
	switch {
	case err == io.EOF:
		return blkEvent{}, io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return blkEvent{}, d.errorAt(d.off, "the trace ends inside a record: %d of its %d bytes", n, blkRecord)
	case err != nil:
		return blkEvent{}, d.errorAt(d.off+int64(n), "%v", err)
	}
	order, ok := blkOrder(rec[:])
	if !ok || d.order != nil && order != d.order {
		return blkEvent{}, d.errorAt(d.off, "no blk_io_trace magic (% x) where a record starts: the trace is damaged or not blkparse -d output", rec[:4])
	}
	if v := order.Uint32(rec[:]) & 0xff; v != blkVersion {
		return blkEvent{}, d.errorAt(d.off, "blk_io_trace version %d: drivebench reads version %d records (48 bytes)", v, blkVersion)
	}
	d.order = order
	pdu := int64(order.Uint16(rec[46:]))
	if m, err := d.r.Discard(int(pdu)); err != nil {
		return blkEvent{}, d.errorAt(d.off+blkRecord+int64(m), "the trace ends inside a record's %d-byte payload", pdu)
	}
	ev := blkEvent{time: order.Uint64(rec[8:]), sector: order.Uint64(rec[16:]), bytes: order.Uint32(rec[24:]),
		action: order.Uint32(rec[28:]), device: order.Uint32(rec[36:])}
	d.off += blkRecord + pdu
	return ev, nil
}

// issue queues the I/O of an issue event until its completion comes.
func (d *blkparseDecoder) issue(at int64, ev blkEvent, cat uint32) error {
	if ev.time > math.MaxInt64 || ev.sector > math.MaxInt64/512 {
		return d.errorAt(at, "time %d ns or sector %d is out of range", ev.time, ev.sector)
	}
	x := IO{At: time.Duration(ev.time), Op: blkOp(cat, ev.bytes), Offset: int64(ev.sector) * 512, Size: int64(ev.bytes),
		Device: fmt.Sprintf("%d:%d", ev.device>>20, ev.device&0xfffff)}
	if x.Op == Flush {
		x.Offset = 0
	}
	d.issues++
	d.pending = append(d.pending, pendingIO{io: x, dev: ev.device, sector: ev.sector, issued: ev.time})
	return nil
}

func blkOp(cat, bytes uint32) Op {
	switch {
	case cat&blkCatDiscard != 0:
		return Discard
	case cat&blkCatFlush != 0 && bytes == 0:
		return Flush
	case cat&blkCatWrite != 0:
		return Write
	}
	return Read
}

// complete gives the oldest pending I/O of the event's device and sector
// its latency.
func (d *blkparseDecoder) complete(ev blkEvent) {
	for i := d.head; i < len(d.pending); i++ {
		p := &d.pending[i]
		if !p.completed && p.dev == ev.device && p.sector == ev.sector && ev.time >= p.issued {
			p.completed, p.io.Latency = true, time.Duration(ev.time-p.issued)
			return
		}
	}
}
