package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"

	"golang.org/x/sys/unix"
)

// TestParseProcLocks: the holders of flocks on one file, as the kernel
// writes them; waiters, other kinds of lock and other files are not
// holders.
func TestParseProcLocks(t *testing.T) {
	dev := unix.Mkdev(0xfe, 0)
	const list = `1: FLOCK  ADVISORY  WRITE 4711 fe:00:9978460 0 EOF
1: -> FLOCK  ADVISORY  WRITE 4712 fe:00:9978460 0 EOF
2: FLOCK  ADVISORY  READ 300 fe:00:9978460 0 EOF
3: POSIX  ADVISORY  WRITE 301 fe:00:9978460 0 EOF
4: OFDLCK ADVISORY  READ  -1 fe:00:9978460 0 EOF
5: FLOCK  ADVISORY  WRITE 302 fe:00:99784600 0 EOF
6: FLOCK  ADVISORY  WRITE 303 fe:01:9978460 0 EOF
7: LEASE  ACTIVE    READ  304 fe:00:9978460 0 EOF
8: FLOCK  ADVISORY  WRITE x fe:00:9978460 0 EOF
9: FLOCK
`
	cases := []struct {
		name string
		data string
		dev  uint64
		ino  uint64
		want []int
	}{
		{"holders of the file", list, dev, 9978460, []int{4711, 300}},
		{"another minor", list, unix.Mkdev(0xfe, 1), 9978460, []int{303}},
		{"a wide major", "1: FLOCK  ADVISORY  WRITE 5 103:02:12 0 EOF\n", unix.Mkdev(0x103, 2), 12, []int{5}},
		{"no such file", list, dev, 1, nil},
		{"empty", "", dev, 9978460, nil},
	}
	for _, c := range cases {
		if got := ParseProcLocks([]byte(c.data), c.dev, c.ino); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func FuzzParseProcLocks(f *testing.F) {
	f.Add([]byte("1: FLOCK  ADVISORY  WRITE 4711 fe:00:12 0 EOF\n"), uint64(unix.Mkdev(0xfe, 0)), uint64(12))
	f.Fuzz(func(t *testing.T, data []byte, dev, ino uint64) {
		for _, pid := range ParseProcLocks(data, dev, ino) {
			if pid <= 0 {
				t.Fatalf("pid %d from %q", pid, data)
			}
		}
	})
}

// TestFlockHolders: a flock taken without a word in the lock file (as
// flock(1) takes one) is named from the kernel's list, with its command
// line.
func TestFlockHolders(t *testing.T) {
	if _, err := os.Stat(procLocks); err != nil {
		testenv.Require(t, procLocks, "%v", err)
	}
	path := filepath.Join(t.TempDir(), "drivebench.lock")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path, false, Self("x"))
	var busy *BusyError
	if !errors.As(err, &busy) || len(busy.Holders) != 1 || busy.Holders[0].PID != os.Getpid() ||
		!reflect.DeepEqual(busy.Holders[0].Command, os.Args) {
		t.Fatalf("got %v (%+v)", err, busy)
	}
	if !strings.Contains(err.Error(), "is locked by pid ") {
		t.Errorf("message: %v", err)
	}
}
