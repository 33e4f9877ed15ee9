package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWriteCacheOfAFileIsRefusedBeforeAnyIO: volatile_write_cache on a
// drive that turns out not to be NVMe stops the run with the reason, and
// the file is left untouched.
func TestWriteCacheOfAFileIsRefusedBeforeAnyIO(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(target, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	planFile := filepath.Join(dir, "plan.hcl")
	os.WriteFile(planFile, []byte(`
drive "d" {
  path                 = "`+target+`"
  writable             = true
  volatile_write_cache = false
}
profile "w" {
  rw      = "randwrite"
  runtime = "100ms"
}
`), 0o644)
	p, g := load(t, planFile, nil)
	out := filepath.Join(dir, "out")
	_, err := Run(context.Background(), p, g, Options{Dir: out})
	if err == nil || !strings.Contains(err.Error(), "is not an NVMe namespace") {
		t.Fatalf("err = %v, want a refusal naming the drive", err)
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); !os.IsNotExist(err) {
		t.Errorf("the refused run wrote a manifest: %v", err)
	}
	data, _ := os.ReadFile(target)
	for _, b := range data {
		if b != 0 {
			t.Fatal("the refused run wrote to the file")
		}
	}
}

// TestPauseBetweenAProfilesSteps: every step after the first waits the
// profile's pause and says so.
func TestPauseBetweenAProfilesSteps(t *testing.T) {
	dir := t.TempDir()
	planFile := filepath.Join(dir, "plan.hcl")
	os.WriteFile(planFile, []byte(`
drive "d" {
  size     = "4MiB"
  writable = true
}
profile "r" {
  rw      = "randread"
  runtime = "50ms"
  pause   = "200ms"
  sweep { iodepth = [1, 2] }
}
`), 0o644)
	p, g := load(t, planFile, nil)
	out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(dir, "out")})
	if err != nil {
		t.Fatal(err)
	}
	first, second := out.Records[0], out.Records[1]
	if strings.Contains(strings.Join(first.Log, "\n"), "idle") {
		t.Errorf("the first step paused: %v", first.Log)
	}
	if !strings.Contains(strings.Join(second.Log, "\n"), "idle for 200ms before the step") {
		t.Errorf("the second step's log does not name its pause: %v", second.Log)
	}
	if took := second.Finished.Sub(second.Started); took < 200*time.Millisecond {
		t.Errorf("the second step took %v, less than its pause", took)
	}
}
