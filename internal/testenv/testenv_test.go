package testenv

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that notes how a test ended: Fatal and Skip
// end its goroutine, as the testing package's do.
type recorder struct {
	testing.TB
	ended, logged string
	failed        bool
}

func (r *recorder) Helper() {}
func (r *recorder) Fatal(args ...any) {
	r.failed, r.ended = true, "fatal: "+fmt.Sprint(args...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) { r.Fatal(fmt.Sprintf(format, args...)) }
func (r *recorder) Skip(args ...any) {
	r.ended = "skip: " + fmt.Sprint(args...)
	runtime.Goexit()
}
func (r *recorder) Error(args ...any) { r.failed, r.logged = true, "error: "+fmt.Sprint(args...) }
func (r *recorder) Log(args ...any)   { r.logged = "log: " + fmt.Sprint(args...) }

// run calls f with a recorder in a goroutine of its own, as a test runs.
func run(f func(t testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
		r.ended = "returned"
	}()
	<-done
	return r
}

func TestRequire(t *testing.T) {
	const msg = "needs fio: it is not installed (apt-get install fio)"
	tests := []struct {
		env                string
		whole, part        string
		wholeFail, partErr bool
	}{
		{env: "", whole: "skip: " + msg, part: "log: " + msg},
		{env: "none", whole: "skip: " + msg, part: "log: " + msg},
		{env: "all", whole: "fatal: " + msg + strictNote, wholeFail: true, part: "error: " + msg + strictNote, partErr: true},
	}
	for _, tt := range tests {
		t.Run("env="+tt.env, func(t *testing.T) {
			t.Setenv(RequireEnv, tt.env)
			r := run(func(tb testing.TB) { Require(tb, "fio", "it is not installed (apt-get install %s)", "fio") })
			if r.ended != tt.whole || r.failed != tt.wholeFail {
				t.Errorf("Require: %q (failed %v), want %q", r.ended, r.failed, tt.whole)
			}
			r = run(func(tb testing.TB) { RequirePart(tb, "fio", "it is not installed (apt-get install %s)", "fio") })
			if r.ended != "returned" || r.logged != tt.part || r.failed != tt.partErr {
				t.Errorf("RequirePart: ended %q, logged %q (failed %v), want %q", r.ended, r.logged, r.failed, tt.part)
			}
		})
	}
}

func TestUnknownRequireValueFails(t *testing.T) {
	t.Setenv(RequireEnv, "yes")
	r := run(func(tb testing.TB) { Require(tb, "root", "not root") })
	if !r.failed || !strings.Contains(r.ended, `DRIVEBENCH_REQUIRE="yes": want all`) {
		t.Errorf("ended %q, want a failure naming the value", r.ended)
	}
}

func TestCommand(t *testing.T) {
	t.Setenv(RequireEnv, "")
	if r := run(func(tb testing.TB) { Command(tb, "sh", "dash") }); r.ended != "returned" {
		t.Errorf("sh: %q", r.ended)
	}
	r := run(func(tb testing.TB) { Command(tb, "drivebench-no-such-tool", "nothing") })
	if want := "skip: needs drivebench-no-such-tool: it is not installed (apt-get install nothing; ./test.sh installs it)"; r.ended != want {
		t.Errorf("a missing tool: %q, want %q", r.ended, want)
	}
}
