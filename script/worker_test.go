package script

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

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
	r := New("testdata", Limits{})
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
