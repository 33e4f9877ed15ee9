package qemu

import (
	"bytes"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
)

// cpioEntry is one entry read back from a newc archive.
type cpioEntry struct {
	name      string
	mode      uint32
	rdevMajor uint32
	rdevMinor uint32
	data      string
}

// readCPIO parses a newc archive up to its trailer, checking the magic
// and the 4-byte alignment of every name and data block.
func readCPIO(t *testing.T, b []byte) []cpioEntry {
	t.Helper()
	var entries []cpioEntry
	off := 0
	for {
		if off%4 != 0 || off+110 > len(b) || string(b[off:off+6]) != "070701" {
			t.Fatalf("no newc header at offset %d", off)
		}
		field := func(i int) uint32 {
			v, err := strconv.ParseUint(string(b[off+6+8*i:off+14+8*i]), 16, 32)
			if err != nil {
				t.Fatal(err)
			}
			return uint32(v)
		}
		size, nameSize := int(field(6)), int(field(11))
		name := string(b[off+110 : off+110+nameSize-1])
		data := (off + 110 + nameSize + 3) &^ 3
		if name == "TRAILER!!!" {
			return entries
		}
		entries = append(entries, cpioEntry{name, field(1), field(9), field(10), string(b[data : data+size])})
		off = (data + size + 3) &^ 3
	}
}

func TestCPIOWriter(t *testing.T) {
	var buf bytes.Buffer
	c := newCPIOWriter(&buf)
	c.file("/bin/busybox", 0o755, []byte("ELF"))
	c.file("lib/x86_64-linux-gnu/libc.so.6", 0o644, []byte("12345"))
	c.dir("proc")
	c.dir("bin")
	c.charDev("dev/console", 0o600, 5, 1)
	c.file("init", 0o755|0o170000, []byte("#!/bin/sh\n"))
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	want := []cpioEntry{
		{"bin", 0o40755, 0, 0, ""},
		{"bin/busybox", 0o100755, 0, 0, "ELF"},
		{"lib", 0o40755, 0, 0, ""},
		{"lib/x86_64-linux-gnu", 0o40755, 0, 0, ""},
		{"lib/x86_64-linux-gnu/libc.so.6", 0o100644, 0, 0, "12345"},
		{"proc", 0o40755, 0, 0, ""},
		{"dev", 0o40755, 0, 0, ""},
		{"dev/console", 0o20600, 5, 1, ""},
		{"init", 0o100755, 0, 0, "#!/bin/sh\n"},
	}
	if got := readCPIO(t, buf.Bytes()); !reflect.DeepEqual(got, want) {
		t.Errorf("entries:\n%v\nwant\n%v", got, want)
	}
	// GNU cpio must read the archive the same way.
	testenv.Command(t, "cpio", "cpio")
	cmd := exec.Command("cpio", "-it", "--quiet")
	cmd.Stdin = bytes.NewReader(buf.Bytes())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cpio -it: %v: %s", err, out)
	}
	var names []string
	for _, e := range want {
		names = append(names, e.name)
	}
	if got := strings.Fields(string(out)); !reflect.DeepEqual(got, names) {
		t.Errorf("cpio -it lists %v, want %v", got, names)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, bytes.ErrTooLarge }

func TestCPIOWriterReportsWriteErrors(t *testing.T) {
	c := newCPIOWriter(failingWriter{})
	c.file("init", 0o755, []byte("x"))
	if err := c.close(); err != bytes.ErrTooLarge {
		t.Errorf("close = %v, want the write error", err)
	}
}
