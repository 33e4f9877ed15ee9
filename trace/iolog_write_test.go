package trace

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
)

var written = []IO{
	{At: 0, Op: Write, Offset: 0, Size: 4096, Device: "/f"},
	{At: 150 * time.Microsecond, Op: Read, Offset: 8192, Size: 65536, Device: "/f"},
	{At: 2 * time.Millisecond, Op: Flush, Device: "/f"},
	{At: 3 * time.Millisecond, Op: Discard, Offset: 1 << 20, Size: 1 << 20, Device: "/f"},
}

// TestIologWriterRoundTrip: what IologWriter writes reads back the same.
func TestIologWriterRoundTrip(t *testing.T) {
	var b bytes.Buffer
	w := NewIologWriter(&b, "/f")
	for _, x := range written {
		if err := w.Write(x); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := NewReader("t", &b)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, f); fmt.Sprint(got) != fmt.Sprint(written) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, written)
	}
}

// TestIologWriterFioReplays: fio's read_iolog replays what IologWriter
// writes, every I/O of it, as fio's JSON counts them.
func TestIologWriterFioReplays(t *testing.T) {
	fio := testenv.Command(t, "fio", "fio")
	dir := t.TempDir()
	target := filepath.Join(dir, "target.img")
	if err := os.WriteFile(target, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "replay.iolog")
	var b bytes.Buffer
	w := NewIologWriter(&b, target)
	for _, x := range written {
		w.Write(x)
	}
	w.Close()
	if err := os.WriteFile(log, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(fio, "--name=replay", "--read_iolog="+log, "--ioengine=psync", "--output-format=json").Output()
	if err != nil {
		t.Fatalf("fio read_iolog: %v\n%s", err, out)
	}
	c := fioCounts(t, out)
	if c.reads != 1 || c.writes != 1 || c.syncs != 1 {
		t.Errorf("fio replayed %d reads, %d writes, %d syncs; want 1 each", c.reads, c.writes, c.syncs)
	}
}
