package lockfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var started = time.Date(2026, 5, 1, 13, 4, 5, 0, time.UTC)

func holder(pid int, forWhat string) Holder {
	return Holder{PID: pid, Command: []string{"drivebench", "run", "-out", "results/a", "plan.hcl"}, Started: started, For: forWhat}
}

// TestParse: the holders a lock file names, one JSON object a line, with
// every line that is not a holder left out.
func TestParse(t *testing.T) {
	one := `{"pid":4711,"command":["drivebench","run","-out","results/a","plan.hcl"],"started":"2026-05-01T13:04:05Z"}`
	shared := `{"pid":12,"command":["drivebench","run","r.hcl"],"started":"2026-05-01T13:04:05Z","shared":true,"for":"drive \"d\""}`
	cases := []struct {
		name, content string
		want          []Holder
	}{
		{"empty", "", nil},
		{"blank lines", "\n\n  \n", nil},
		{"exclusive holder", one + "\n", []Holder{holder(4711, "")}},
		{"no final newline", one, []Holder{holder(4711, "")}},
		{"shared holders", shared + "\n" + shared + "\n", []Holder{
			{PID: 12, Command: []string{"drivebench", "run", "r.hcl"}, Started: started, Shared: true, For: `drive "d"`},
			{PID: 12, Command: []string{"drivebench", "run", "r.hcl"}, Started: started, Shared: true, For: `drive "d"`}}},
		{"torn last line", one + "\n" + one[:20], []Holder{holder(4711, "")}},
		{"garbage", "held by me\x00\xff\n", nil},
		{"no pid", `{"command":["x"]}` + "\n", nil},
		{"negative pid", `{"pid":-3}` + "\n", nil},
		{"wrong types", `{"pid":"12","command":"x"}` + "\n", nil},
		{"pid only", `{"pid":9}`, []Holder{{PID: 9}}},
		{"crlf", one + "\r\n", []Holder{holder(4711, "")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Parse([]byte(c.content))
			for i := range got {
				got[i].Started = got[i].Started.UTC()
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Parse(%q) = %+v, want %+v", c.content, got, c.want)
			}
		})
	}
}

// FuzzParse: no content makes Parse fail, and every holder it reads is
// read back the same from the line it is written as.
func FuzzParse(f *testing.F) {
	f.Add([]byte(holder(1, "x").line()))
	f.Add([]byte(`{"pid":3,"shared":true}` + "\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, h := range Parse(data) {
			if h.PID <= 0 {
				t.Fatalf("holder without a pid from %q", data)
			}
			again := Parse(h.line())
			if len(again) != 1 || again[0].String() != h.String() {
				t.Fatalf("%+v is read back as %+v", h, again)
			}
		}
	})
}

func TestHolderString(t *testing.T) {
	h := holder(4711, `results folder "r"`)
	h.Command = append(h.Command, "-var", "note=two words", "it's")
	want := `pid 4711 (drivebench run -out results/a plan.hcl -var 'note=two words' 'it'\''s') since ` +
		started.Local().Format("2006-01-02 15:04:05 MST") + ` for results folder "r"`
	if got := h.String(); got != want {
		t.Errorf("String() = %s\nwant        %s", got, want)
	}
	if got := (Holder{PID: 7}).String(); got != "pid 7" {
		t.Errorf("bare holder: %s", got)
	}
	if got := CommandLine([]string{"a", ""}); got != "a ''" {
		t.Errorf("empty argument: %s", got)
	}
}

func busy(t *testing.T, err error) *BusyError {
	t.Helper()
	var b *BusyError
	if !errors.As(err, &b) {
		t.Fatalf("want a BusyError, got %v", err)
	}
	return b
}

// TestExclusive: a second exclusive lock is refused naming the first
// holder, and is granted once the first is released, which removes the
// lock file.
func TestExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "drivebench.lock")
	first, err := Acquire(path, false, Self("the first"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path, false, Self("the second"))
	b := busy(t, err)
	if len(b.Holders) != 1 || b.Holders[0].PID != os.Getpid() || b.Holders[0].For != "the first" || b.Shared() {
		t.Errorf("holders %+v", b.Holders)
	}
	if !strings.Contains(err.Error(), path+" is locked by pid ") {
		t.Errorf("message: %v", err)
	}
	if _, err := Acquire(path, true, Self("a reader")); err == nil {
		t.Error("a shared lock was granted beside an exclusive one")
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file is still there after its release: %v", err)
	}
	second, err := Acquire(path, false, Self("the second"))
	if err != nil {
		t.Fatal(err)
	}
	second.Release()
}

// TestShared: shared holders go together and are all named to an
// exclusive one; the file stays until the last of them releases it.
func TestShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, err := Acquire(path, true, Self("reader a"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Acquire(path, true, Self("reader b"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path, false, Self("writer"))
	e := busy(t, err)
	if len(e.Holders) != 2 || !e.Shared() || e.Holders[0].For != "reader a" || e.Holders[1].For != "reader b" {
		t.Errorf("holders %+v", e.Holders)
	}
	a.Release()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the lock file went while reader b holds it: %v", err)
	}
	if _, err := Acquire(path, false, Self("writer")); err == nil {
		t.Error("an exclusive lock was granted beside a shared one")
	}
	b.Release()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file is still there after the last release: %v", err)
	}
}

// TestStaleLockFile: a lock file a killed process left (its content, no
// flock) does not block, and is rewritten with the new holder.
func TestStaleLockFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "drivebench.lock")
	if err := os.WriteFile(path, holder(999999, "a killed run").line(), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(path, false, Self("this run"))
	if err != nil {
		t.Fatalf("a stale lock file blocks: %v", err)
	}
	defer l.Release()
	data, _ := os.ReadFile(path)
	if got := Parse(data); len(got) != 1 || got[0].PID != os.Getpid() || got[0].For != "this run" {
		t.Errorf("lock file holds %s", data)
	}
}

// TestLockFileSymlink: a lock file that is a symbolic link is not
// followed, so a link cannot make drivebench write elsewhere.
func TestLockFileSymlink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	path := filepath.Join(dir, "drivebench.lock")
	os.Symlink(victim, path)
	if _, err := Acquire(path, false, Self("x")); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("got %v", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Errorf("the link's target was written: %q", data)
	}
}

// TestReleaseKeepsAReplacedFile: a holder whose lock file was replaced
// (removed by hand, then taken by another process) leaves the new file.
func TestReleaseKeepsAReplacedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "drivebench.lock")
	old, err := Acquire(path, false, Self("old"))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	now, err := Acquire(path, false, Self("new"))
	if err != nil {
		t.Fatal(err)
	}
	old.Release()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the new holder's file was removed: %v", err)
	}
	now.Release()
}

func TestLive(t *testing.T) {
	self := holder(os.Getpid(), "")
	gone := holder(1<<22+12345, "") // above pid_max's ceiling: no such process
	if got := Live([]Holder{gone, self}); len(got) != 1 || got[0].PID != os.Getpid() {
		t.Errorf("Live kept %+v", got)
	}
	if got := Live([]Holder{gone}); len(got) != 1 {
		t.Errorf("with none alive Live must keep them all, kept %+v", got)
	}
}

// TestAcquireRacingReleases: holders that take and release one lock file
// at once, each release removing the file, meet a file removed between
// its open and its flock; Acquire then tries again, so it gives a lock or
// an error, never neither, and no two holders hold the lock together.
func TestAcquireRacingReleases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "drivebench.lock")
	const holders, rounds = 4, 500
	var inside atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, holders)
	for h := range holders {
		wg.Go(func() {
			for range rounds {
				l, err := Acquire(path, false, Self(fmt.Sprint("holder ", h)))
				var busy *BusyError
				switch {
				case errors.As(err, &busy), err != nil && strings.Contains(err.Error(), "times while it was being locked"):
					continue // held by another, or taken from under it maxAttempts times
				case err != nil:
					errs <- err
					return
				case l == nil:
					errs <- errors.New("Acquire gave no lock and no error")
					return
				}
				if n := inside.Add(1); n != 1 {
					errs <- fmt.Errorf("%d holders hold the lock at once", n)
					return
				}
				inside.Add(-1)
				if err := l.Release(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
