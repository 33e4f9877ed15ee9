package trace

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
)

// blkRec is a blk_io_trace record to write in a test.
type blkRec struct {
	time, sector            uint64
	bytes, action, dev, cpu uint32
	pdu                     []byte
}

const (
	taQueue    = blkActQueue | 1<<4<<16
	taIssue    = blkActIssue | 1<<6<<16
	taComplete = blkActComplete | 1<<7<<16
	tcRead     = 1 << 16
	tcWrite    = blkCatWrite << 16
	tcFlush    = blkCatFlush << 16
	tcDiscard  = blkCatDiscard << 16
	tcNotify   = blkCatNotify << 16
	loop0      = 7 << 20
)

func writeBlk(o binary.ByteOrder, recs []blkRec) []byte {
	var b bytes.Buffer
	for i, r := range recs {
		var rec [blkRecord]byte
		o.PutUint32(rec[0:], blkMagic|blkVersion)
		o.PutUint32(rec[4:], uint32(i+1))
		o.PutUint64(rec[8:], r.time)
		o.PutUint64(rec[16:], r.sector)
		o.PutUint32(rec[24:], r.bytes)
		o.PutUint32(rec[28:], r.action)
		o.PutUint32(rec[32:], 100)
		o.PutUint32(rec[36:], r.dev)
		o.PutUint32(rec[40:], r.cpu)
		o.PutUint16(rec[46:], uint16(len(r.pdu)))
		b.Write(rec[:])
		b.Write(r.pdu)
	}
	return b.Bytes()
}

// blkFixture is a short trace: a queued and merged write issued once, a
// read, a flush, a discard and a process note with a payload.
var blkFixture = []blkRec{
	{time: 1000, action: taQueue | tcWrite, sector: 8, bytes: 4096, dev: loop0},
	{time: 1100, action: taQueue | tcWrite, sector: 16, bytes: 4096, dev: loop0},
	{time: 1200, action: tcNotify, pdu: []byte("fio\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")},
	{time: 2000, action: taIssue | tcWrite, sector: 8, bytes: 8192, dev: loop0},
	{time: 2500, action: taIssue | tcRead, sector: 2048, bytes: 65536, dev: loop0},
	{time: 3000, action: taComplete | tcRead, sector: 2048, bytes: 65536, dev: loop0},
	{time: 9000, action: taComplete | tcWrite, sector: 8, bytes: 8192, dev: loop0},
	{time: 9500, action: taIssue | tcWrite | tcFlush, dev: loop0},
	{time: 9700, action: taIssue | tcWrite | tcDiscard, sector: 4096, bytes: 1 << 20, dev: 259<<20 | 1},
	{time: 9800, action: taComplete | tcWrite | tcFlush, dev: loop0},
}

var blkWant = []IO{
	{At: 0, Op: Write, Offset: 4096, Size: 8192, Device: "7:0", Latency: 7000},
	{At: 500, Op: Read, Offset: 1 << 20, Size: 65536, Device: "7:0", Latency: 500},
	{At: 7500, Op: Flush, Device: "7:0", Latency: 300},
	{At: 7700, Op: Discard, Offset: 4096 * 512, Size: 1 << 20, Device: "259:1"},
}

func TestBlkparseByteOrders(t *testing.T) {
	for _, o := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		t.Run(fmt.Sprint(o), func(t *testing.T) {
			f, err := NewReader("t", bytes.NewReader(writeBlk(o, blkFixture)))
			if err != nil {
				t.Fatal(err)
			}
			if f.Format() != Blkparse {
				t.Errorf("format %s", f.Format())
			}
			if got := readAll(t, f); fmt.Sprint(got) != fmt.Sprint(blkWant) {
				t.Errorf("I/Os\n%+v\nwant\n%+v", got, blkWant)
			}
		})
	}
}

func TestBlkparseErrors(t *testing.T) {
	le := binary.LittleEndian
	good := writeBlk(le, blkFixture[:4])
	mixed := append(writeBlk(le, blkFixture[:1]), writeBlk(binary.BigEndian, blkFixture[1:2])...)
	v8 := writeBlk(le, blkFixture[:1])
	v8[0] = 8
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"cut", good[:len(good)-10], "t: byte 160: the trace ends inside a record: 38 of its 48 bytes"},
		{"payload", good[:48*3+5], "t: byte 149: the trace ends inside a record's 16-byte payload"},
		{"mixed order", mixed, "t: byte 48: no blk_io_trace magic (65 61 74 07) where a record starts"},
		{"version", v8, "t: byte 0: blk_io_trace version 8: drivebench reads version 7 records"},
		{"queue only", writeBlk(le, blkFixture[:2]), "t: byte 96: no issue (D) events among 2 queue (Q) events"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readErr(bytes.NewReader(tt.data))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want it to start %q", err, tt.want)
			}
		})
	}
}

// TestBlkparseBounded checks that a trace whose issues never complete
// goes out in order, its I/Os without latency, holding at most
// maxPending of them.
func TestBlkparseBounded(t *testing.T) {
	var recs []blkRec
	const n = maxPending + 100
	for i := range n {
		recs = append(recs, blkRec{time: uint64(i), action: taIssue | tcRead, sector: uint64(i) * 8, bytes: 4096, dev: loop0})
	}
	f, err := NewReader("t", bytes.NewReader(writeBlk(binary.LittleEndian, recs)))
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, f)
	if len(got) != n || got[n-1].Offset != (n-1)*4096 || got[0].Latency != 0 {
		t.Errorf("%d I/Os, last %+v", len(got), got[len(got)-1])
	}
	if d := f.dec.(*blkparseDecoder); cap(d.pending) > 2*maxPending {
		t.Errorf("held %d I/Os", cap(d.pending))
	}
}

// TestBlkparseDump runs the real blkparse over per-CPU files of the
// fixture, as blktrace writes them, and reads the trace blkparse -d
// dumps: the I/Os are the fixture's.
func TestBlkparseDump(t *testing.T) {
	blkparse := testenv.Command(t, "blkparse", "blktrace")
	dir := t.TempDir()
	byCPU := map[uint32][]blkRec{}
	for i, r := range blkFixture {
		r.cpu = uint32(i % 2)
		byCPU[r.cpu] = append(byCPU[r.cpu], r)
	}
	for cpu, recs := range byCPU {
		name := filepath.Join(dir, fmt.Sprintf("loop0.blktrace.%d", cpu))
		if err := os.WriteFile(name, writeBlk(binary.NativeEndian, recs), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dump := filepath.Join(dir, "loop0.bin")
	cmd := exec.Command(blkparse, "-i", "loop0", "-d", dump, "-O")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("blkparse: %v\n%s", err, out)
	}
	f, err := Open(dump)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := readAll(t, f); fmt.Sprint(got) != fmt.Sprint(blkWant) {
		t.Errorf("I/Os of blkparse -d\n%+v\nwant\n%+v", got, blkWant)
	}
}

// TestBlkparseFixtureFile: testdata/loop0.blkparse, which the CLI tests
// read, is the fixture in little-endian order.
func TestBlkparseFixtureFile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "loop0.blkparse"))
	if err != nil || !bytes.Equal(b, writeBlk(binary.LittleEndian, blkFixture)) {
		t.Errorf("testdata/loop0.blkparse is not blkFixture (%v): rewrite it with writeBlk", err)
	}
}

func FuzzBlkparse(f *testing.F) {
	addFixtures(f, "*.blkparse")
	f.Add(writeBlk(binary.BigEndian, blkFixture[3:]))
	f.Fuzz(fuzzTrace)
}
