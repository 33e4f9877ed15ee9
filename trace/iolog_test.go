package trace

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
)

// readAll reads every I/O of a trace.
func readAll(t *testing.T, f *File) []IO {
	t.Helper()
	var ios []IO
	for {
		x, err := f.Next()
		if errors.Is(err, io.EOF) {
			return ios
		}
		if err != nil {
			t.Fatal(err)
		}
		ios = append(ios, x)
	}
}

func TestIologFixtures(t *testing.T) {
	tests := []struct {
		file   string
		format Format
		want   []IO
	}{
		{"v2.iolog", IologV2, []IO{
			{Op: Write, Offset: 0, Size: 4096, Device: "/dev/sdb"},
			{Op: Read, Offset: 8192, Size: 65536, Device: "/dev/sdb"},
			{At: 1500 * time.Microsecond, Op: Flush, Device: "/dev/sdb"},
			{At: 1500 * time.Microsecond, Op: Discard, Offset: 1 << 20, Size: 131072, Device: "/dev/sdb"},
		}},
		{"v3.iolog", IologV3, []IO{
			{At: 0, Op: Read, Offset: 4096, Size: 4096, Device: "/tmp/f"},
			{At: 100 * time.Microsecond, Op: Write, Offset: 0, Size: 8192, Device: "/tmp/f"},
			{At: 2480 * time.Microsecond, Op: Flush, Device: "/tmp/f"},
			{At: 2980 * time.Microsecond, Op: Discard, Offset: 0, Size: 1 << 20, Device: "/tmp/f"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := Open(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Format() != tt.format {
				t.Errorf("format %s, want %s", f.Format(), tt.format)
			}
			got := readAll(t, f)
			if len(got) != len(tt.want) {
				t.Fatalf("%d I/Os, want %d: %+v", len(got), len(tt.want), got)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("I/O %d: %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestIologErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"action", "fio version 2 iolog\n/f add\n/f scribble 0 4096\n", "t:3: action \"scribble\" is not read, write, sync, datasync, trim or wait"},
		{"offset", "fio version 3 iolog\n5 /f read -1 4096\n", "t:2: offset \"-1\" is not a whole number"},
		{"fields", "fio version 3 iolog\n5 /f read 0\n", "t:2: 3 fields where an iolog line has 3 (TIME FILE ACTION) or 5"},
		{"file action", "fio version 2 iolog\n/f shut\n", "t:2: file action \"shut\" is not add, open or close"},
		{"wait v3", "fio version 3 iolog\n5 /f wait 100 0\n", "t:2: wait is not allowed in iolog version 3"},
		{"time", "fio version 3 iolog\nsoon /f read 0 4096\n", "t:2: timestamp (microseconds) \"soon\" is not a whole number"},
		{"order", "fio version 3 iolog\n50 /f read 0 4096\n40 /f read 0 4096\n", "t:3: this I/O comes at -10µs, before the one above it (0s)"},
		{"long", "fio version 2 iolog\n" + strings.Repeat("x", readBuffer+10) + "\n", "t:2: the line is longer than 256 KiB"},
		{"empty", "", "t: the file is empty"},
		{"unknown", "hello,world\n", "t: not a trace format drivebench reads: its first line is \"hello,world\""},
		{"binary", "\x00\x01\x02\x03garbage", "t: not a trace format drivebench reads: binary data starting 00 01 02 03"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readErr(strings.NewReader(tt.text))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want it to start %q", err, tt.want)
			}
		})
	}
}

// readErr reads a trace named t to its end and returns the error that
// stopped it, nil at io.EOF.
func readErr(r io.Reader) error {
	f, err := NewReader("t", r)
	if err != nil {
		return err
	}
	for {
		if _, err := f.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// TestIologFromFio characterizes the iolog real fio writes (write_iolog)
// and checks its counts against fio's own JSON account of the same run.
func TestIologFromFio(t *testing.T) {
	fio := testenv.Command(t, "fio", "fio")
	dir := t.TempDir()
	log := filepath.Join(dir, "job.iolog")
	out, err := exec.Command(fio, "--name=t", "--filename="+filepath.Join(dir, "f.img"), "--size=4M",
		"--rw=randrw", "--bs=4k", "--io_size=1M", "--ioengine=psync", "--fsync=8",
		"--write_iolog="+log, "--output-format=json").Output()
	if err != nil {
		t.Fatalf("fio: %v", err)
	}
	want := fioCounts(t, out)
	f, err := Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Format() != IologV3 {
		t.Errorf("format %s, want %s", f.Format(), IologV3)
	}
	s, err := Characterize(f, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.IOs != want.reads+want.writes+want.syncs || s.Reads != want.reads || s.Writes != want.writes || s.Flushes != want.syncs || s.Bytes != 1<<20 {
		t.Errorf("%d I/Os: %d reads, %d writes, %d flushes, %d bytes; fio says %d reads, %d writes, %d syncs and 1048576 bytes",
			s.IOs, s.Reads, s.Writes, s.Flushes, s.Bytes, want.reads, want.writes, want.syncs)
	}
	if s.ReadBytes != 4096*want.reads || s.Sizes[0] != (SizeCount{4096, want.reads + want.writes, 100}) {
		t.Errorf("%d bytes read, sizes %+v", s.ReadBytes, s.Sizes)
	}
}

type fioJobCounts struct{ reads, writes, syncs int64 }

// fioCounts reads the I/O counts of fio's one job from its JSON output.
func fioCounts(t *testing.T, out []byte) fioJobCounts {
	t.Helper()
	var doc struct {
		Jobs []struct {
			Read, Write struct {
				TotalIOs int64 `json:"total_ios"`
			}
			Sync struct {
				TotalIOs int64 `json:"total_ios"`
			}
		}
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("fio JSON: %v (%d jobs)", err, len(doc.Jobs))
	}
	j := doc.Jobs[0]
	return fioJobCounts{j.Read.TotalIOs, j.Write.TotalIOs, j.Sync.TotalIOs}
}

// TestCompressedAndArchived: a gzip-compressed trace reads as the trace;
// a tar archive is refused with what to do, and so is a damaged gzip.
func TestCompressedAndArchived(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "v3.iolog"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	f, err := NewReader("v3.iolog.gz", bytes.NewReader(gz.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want := readFile(t, filepath.Join("testdata", "v3.iolog"))
	if got := readAll(t, f); f.Format() != IologV3 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: %v, want %v", f.Format(), got, want)
	}
	bad := append(slices.Clone(gz.Bytes()[:20]), "fio version 3 iolog\n1 /f jump 0 1\n"...)
	if err := readErr(bytes.NewReader(bad)); err == nil || err.Error() != "t (decompressed): flate: corrupt input before offset 21" {
		t.Errorf("damaged gzip: %v", err)
	}
	var tarball bytes.Buffer
	tw := tar.NewWriter(&tarball)
	tw.WriteHeader(&tar.Header{Name: "2018-10-01-01.csv", Mode: 0o644, Size: int64(len(plain))})
	tw.Write(plain)
	tw.Close()
	if err := readErr(bytes.NewReader(tarball.Bytes())); err == nil || !strings.Contains(err.Error(), "t: a tar archive, as some trace archives ship their traces: extract the trace from it first (tar -xf)") {
		t.Errorf("tar archive: %v", err)
	}
}

// readFile reads every I/O of the trace at path.
func readFile(t *testing.T, path string) []IO {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readAll(t, f)
}
