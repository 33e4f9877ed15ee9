package native

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"golang.org/x/sys/unix"
)

func TestTryTransferMovesCachedBytes(t *testing.T) {
	path, content := patternFile(t, t.TempDir(), 64<<10)
	fd, err := unix.Open(path, unix.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var sys unixSyscalls
	data := bytes.Repeat([]byte{0xA5}, 8192)
	n, err, ok := sys.tryPwrite(fd, data, 16384)
	switch {
	case ok && (err != nil || n != len(data)):
		t.Fatalf("tryPwrite: %d bytes, %v", n, err)
	case !ok: // the filesystem cannot tell that a buffered write will not wait
		if _, err := sys.pwrite(fd, data, 16384, false); err != nil {
			t.Fatal(err)
		}
	}
	copy(content[16384:], data)
	got := make([]byte, 32768)
	n, err, ok = sys.tryPread(fd, got, 4096)
	if !ok || err != nil || n != len(got) || !bytes.Equal(got, content[4096:4096+32768]) {
		t.Fatalf("tryPread of cached pages: %d bytes, %v, ok %v; want the file's bytes", n, err, ok)
	}
}

// partialSys moves half of every buffered transfer without waiting and
// logs what pread and pwrite are then asked for.
type partialSys struct {
	unixSyscalls
	rest []transfer
}

func (s *partialSys) tryPread(_ int, buf []byte, _ int64) (int, error, bool) {
	return len(buf) / 2, nil, true
}

func (s *partialSys) tryPwrite(_ int, buf []byte, _ int64) (int, error, bool) {
	return len(buf) / 2, nil, true
}

func (s *partialSys) pread(_ int, buf []byte, off int64, _ bool) (int, error) {
	s.rest = append(s.rest, transfer{op: opRead, offset: off, length: len(buf)})
	return len(buf), nil
}

func (s *partialSys) pwrite(_ int, buf []byte, off int64, _ bool) (int, error) {
	s.rest = append(s.rest, transfer{op: opWrite, offset: off, length: len(buf)})
	return len(buf), nil
}

func TestTransferFinishesWhatTheTryLeft(t *testing.T) {
	for _, o := range []op{opRead, opWrite} {
		sys := &partialSys{}
		r := &run{sys: sys}
		n, err := r.transfer(0, &ioRequest{op: o, offset: 8192, buf: make([]byte, 16384)}, false)
		want := []transfer{{op: o, offset: 8192 + 8192, length: 8192}}
		if n != 16384 || err != nil || !reflect.DeepEqual(sys.rest, want) {
			t.Errorf("%s: moved %d bytes (%v), then asked for %+v; want 16384 and %+v", o.syscall(), n, err, sys.rest, want)
		}
	}
}

// TestTransferNotTried: under O_DIRECT the page cache has nothing to
// give, and a slot that holds its P waits in the kernel anyway, so the
// whole transfer goes to pread or pwrite.
func TestTransferNotTried(t *testing.T) {
	for _, tc := range []struct {
		name          string
		direct, holdP bool
	}{
		{name: "O_DIRECT", direct: true},
		{name: "O_DIRECT, P held", direct: true, holdP: true},
		{name: "buffered, P held", holdP: true},
	} {
		for _, o := range []op{opRead, opWrite} {
			sys := &partialSys{}
			r := &run{sys: sys, direct: tc.direct}
			n, err := r.transfer(0, &ioRequest{op: o, offset: 4096, buf: make([]byte, 4096)}, tc.holdP)
			want := []transfer{{op: o, offset: 4096, length: 4096}}
			if n != 4096 || err != nil || !reflect.DeepEqual(sys.rest, want) {
				t.Errorf("%s, %s: moved %d bytes (%v), asked for %+v; want the whole transfer, not tried", tc.name, o.syscall(), n, err, sys.rest)
			}
		}
	}
}

// TestHeldTransfersMoveTheSameBytes writes and reads back through both
// kinds of wait: the raw system call that keeps the P and the ordinary
// one.
func TestHeldTransfersMoveTheSameBytes(t *testing.T) {
	for _, holdP := range []bool{false, true} {
		path, content := patternFile(t, t.TempDir(), 64<<10)
		fd, err := unix.Open(path, unix.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		var sys unixSyscalls
		data := bytes.Repeat([]byte{0x5A}, 4096)
		if n, err := sys.pwrite(fd, data, 8192, holdP); n != len(data) || err != nil {
			t.Fatalf("holdP %v: pwrite moved %d bytes, %v", holdP, n, err)
		}
		copy(content[8192:], data)
		got := make([]byte, 16384)
		if n, err := sys.pread(fd, got, 4096, holdP); n != len(got) || err != nil || !bytes.Equal(got, content[4096:4096+16384]) {
			t.Fatalf("holdP %v: pread moved %d bytes, %v; want the file's bytes", holdP, n, err)
		}
		if _, err := sys.pread(-1, got, 0, holdP); !errors.Is(err, unix.EBADF) {
			t.Errorf("holdP %v: pread of a closed descriptor gave %v; want EBADF", holdP, err)
		}
		unix.Close(fd)
	}
}
