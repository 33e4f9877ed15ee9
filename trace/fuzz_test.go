package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// fuzzTrace reads data as a trace to its end: whatever it holds, the
// readers return I/Os or an error, never panic, and every I/O they
// return is sound.
func fuzzTrace(t *testing.T, data []byte) {
	f, err := NewReader("fuzz", bytes.NewReader(data))
	if err != nil {
		return
	}
	for {
		io, err := f.Next()
		if err != nil {
			return
		}
		if io.At < 0 || io.Offset < 0 || io.Size < 0 || io.Op < Read || io.Op > Discard {
			t.Fatalf("unsound I/O %+v from %q", io, data)
		}
	}
}

// addFixtures seeds a fuzz test with the files of testdata.
func addFixtures(f *testing.F, pattern string) {
	files, _ := filepath.Glob(filepath.Join("testdata", pattern))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzIolog(f *testing.F) {
	addFixtures(f, "*.iolog")
	f.Add([]byte("fio version 3 iolog\n1 /f read 0 4096\n0 /f write 1 2\n"))
	f.Add([]byte("fio version 2 iolog\n/f wait 18446744073709551615 0\n/f read 0 1\n"))
	f.Add([]byte("fio version 2 iolog\n/f wait 9223372036854775807 0\n/f read 0 1\n"))
	f.Fuzz(fuzzTrace)
}
