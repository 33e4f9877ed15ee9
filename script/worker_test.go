package script

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/addrspace"
	"github.com/drivebench/drivebench/results"
)

// TestMemoryLimit: a hook that asks for more memory than its limit, in
// one step or by growing a string, fails its own call with an error that
// names the hook, the function and the limit; the next call runs in a new
// worker.
func TestMemoryLimit(t *testing.T) {
	r := New("testdata", Limits{Memory: 64 << 20, MaxSteps: 1 << 40, Timeout: time.Minute})
	defer r.Close()
	for _, function := range []string{"one_step", "doubling"} {
		t.Run(function, func(t *testing.T) {
			_, _, err := r.Check(context.Background(), "memory.star", function, nil)
			if !errors.Is(err, ErrMemoryLimit) {
				t.Fatalf("got %v, want a memory limit error", err)
			}
			e := wantError(t, err, "memory.star:", "^hook stopped: "+function+" used more than the memory limit of 64 MiB; ")
			if e.Line == 0 {
				t.Errorf("error not at the function's definition: %+v", e)
			}
			v, _, err := r.Check(context.Background(), "memory.star", "fine", nil)
			if err != nil || len(v) != 1 || v[0].Message != "small" {
				t.Errorf("the call after: %v, %v", v, err)
			}
		})
	}
}

// TestStarlarkReservationOnlyInWorker: the 4 GiB of address space the
// Starlark package reserves at start are reserved in the hook worker
// alone, not in this process, which links Starlark as drivebench does.
func TestStarlarkReservationOnlyInWorker(t *testing.T) {
	if starlarkReserved(t, "self") {
		t.Error("this process, not a hook worker, holds Starlark's 4 GiB reservation")
	}
	r := New("testdata", Limits{})
	defer r.Close()
	if _, _, err := r.Check(context.Background(), "memory.star", "fine", nil); err != nil {
		t.Fatal(err)
	}
	r.worker.mu.Lock()
	pid := strconv.Itoa(r.worker.proc.cmd.Process.Pid)
	r.worker.mu.Unlock()
	if limit, ok := addrspace.Limit(); ok {
		t.Logf("not checking that the worker holds the reservation: this process runs under an address-space limit of %d bytes", limit)
	} else if !starlarkReserved(t, pid) {
		t.Error("the hook worker runs without Starlark's reservation although nothing limits its address space")
	}
}

// starlarkReserved says whether process pid maps an anonymous, read-only
// region of exactly 4 GiB: Starlark's reservation.
func starlarkReserved(t *testing.T, pid string) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/" + pid + "/maps")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(maps), "\n") {
		f := strings.Fields(line)
		if len(f) != 5 || f[1] != "r--p" {
			continue
		}
		from, to, _ := strings.Cut(f[0], "-")
		a, err1 := strconv.ParseUint(from, 16, 64)
		b, err2 := strconv.ParseUint(to, 16, 64)
		if err1 == nil && err2 == nil && b-a == addrspace.Starlark {
			return true
		}
	}
	return false
}

// TestWorkerFuncs: a Func passed to a hook stays in drivebench and is
// called through the worker, errors included.
func TestWorkerFuncs(t *testing.T) {
	r := New("testdata", Limits{})
	defer r.Close()
	q := Func(func(args ...float64) (float64, error) {
		if args[0] > 100 {
			return 0, errors.New("too high")
		}
		return args[0] * 2, nil
	})
	got, _, err := r.Call(context.Background(), "bridge.star", "call_twice", q)
	if err != nil {
		t.Fatal(err)
	}
	if got != 42.0 {
		t.Errorf("got %v, want 42", got)
	}
	_, _, err = r.Call(context.Background(), "bridge.star", "call_failing", q)
	wantError(t, err, "bridge.star:", `too high`)
}

// TestOutputCaps: verdicts past MaxVerdicts fold into one carrying the
// worst status cut; long messages and prints are cut, saying so.
func TestOutputCaps(t *testing.T) {
	// The hooks build 200,000 verdicts and 60 MB strings: the wall-clock
	// limit is the step limit's business here, not what this test checks,
	// so it is far above what a loaded machine needs.
	r := New("testdata", Limits{Timeout: 5 * time.Minute})
	defer r.Close()
	v, _, err := r.Check(context.Background(), "memory.star", "many", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != MaxVerdicts+1 {
		t.Fatalf("%d verdicts, want %d", len(v), MaxVerdicts+1)
	}
	last := v[MaxVerdicts]
	if last.Status != results.VerdictFail || last.Message != "199001 more verdicts cut (1 fail, 0 warn, 199000 pass): a check may return at most 1000; judge in fewer, wider verdicts" {
		t.Errorf("last verdict %+v", last)
	}
	v, prints, err := r.Check(context.Background(), "memory.star", "long_message", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(v[0].Message) > MaxMessageBytes+100 || !strings.HasSuffix(v[0].Message, "… [cut: 60000000 bytes; a verdict message may be at most 4096]") {
		t.Errorf("message of %d bytes ends %q", len(v[0].Message), v[0].Message[len(v[0].Message)-80:])
	}
	if len(prints) != MaxPrints+1 || len(prints[0]) > MaxMessageBytes+100 || !strings.Contains(prints[MaxPrints], "print() output cut") {
		t.Errorf("%d prints, the first %d bytes, the last %q", len(prints), len(prints[0]), prints[len(prints)-1])
	}
}

// FuzzHookValues builds large structured values (deep nesting, long lists,
// long strings) and hooks that return many or long verdicts: converting
// and crossing the wire never panics, a value too deep is an error, and
// what a check returns stays within the caps, the cut said.
func FuzzHookValues(f *testing.F) {
	f.Add(uint8(3), uint16(10), uint16(5), uint32(10), uint32(10))
	f.Add(uint8(120), uint16(1), uint16(0), uint32(0), uint32(0))
	f.Add(uint8(1), uint16(5000), uint16(4000), uint32(5000), uint32(9000))
	rt := &Runtime{Root: "testdata", inWorker: true, Limits: Limits{MaxSteps: 1 << 30, Timeout: time.Minute}}
	f.Fuzz(func(t *testing.T, depth uint8, width, strlen uint16, verdicts, msglen uint32) {
		v := nested(int(depth), int(width)%5000, strings.Repeat("é", int(strlen)%5000))
		if _, err := toStarlark(v); err != nil && !errors.Is(err, errTooDeep) {
			t.Fatalf("toStarlark: %v", err)
		}
		var e encoder
		if _, err := e.encode(v, "", 0); err != nil && !errors.Is(err, errTooDeep) {
			t.Fatalf("encode: %v", err)
		}
		n, m := int(verdicts%20000), int(msglen%100000)
		got, _, err := rt.Check(context.Background(), "memory.star", "shaped", Struct{"n": n, "m": m})
		if err != nil {
			t.Fatalf("check of %d verdicts of %d bytes: %v", n, m, err)
		}
		want := n
		if n > MaxVerdicts {
			want = MaxVerdicts + 1 // the kept ones and the one that says what was cut
		}
		if len(got) != want {
			t.Fatalf("%d verdicts for %d, want %d", len(got), n, want)
		}
		for _, v := range got {
			if len(v.Message) > MaxMessageBytes+100 {
				t.Fatalf("a message of %d bytes", len(v.Message))
			}
		}
	})
}

// nested is a value depth levels deep whose innermost list holds width
// strings s.
func nested(depth, width int, s string) any {
	if depth == 0 {
		list := make([]any, width)
		for i := range list {
			list[i] = s
		}
		return list
	}
	if depth%2 == 0 {
		return Struct{"next": nested(depth-1, width, s)}
	}
	return []any{nested(depth-1, width, s), map[string]any{"k": int64(depth)}}
}

// BenchmarkCheck is the cost of one check call in the hook worker (a
// warm one, as in a run) against in-process, where memory cannot be
// bounded: go test -bench Check ./script.
func BenchmarkCheck(b *testing.B) {
	for _, tc := range []struct {
		name string
		rt   *Runtime
	}{
		{"worker", New("testdata", Limits{})},
		{"in-process", &Runtime{Root: "testdata", inWorker: true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			defer tc.rt.Close()
			for b.Loop() {
				if _, _, err := tc.rt.Check(context.Background(), "memory.star", "fine", nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWorkerStart is the cost of a call that starts its worker (the
// first of a Runtime, or the first after workerIdle).
func BenchmarkWorkerStart(b *testing.B) {
	for b.Loop() {
		rt := New("testdata", Limits{})
		if _, _, err := rt.Check(context.Background(), "memory.star", "fine", nil); err != nil {
			b.Fatal(err)
		}
		rt.Close()
	}
}
