package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/plan"
)

// TestPlannedTargetMatchesARun: the target export describes is the one a
// run resolves, without creating anything.
func TestPlannedTargetMatchesARun(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.img")
	os.WriteFile(big, make([]byte, 1<<20), 0o644)
	empty := filepath.Join(dir, "empty.img")
	os.WriteFile(empty, nil, 0o644)
	tests := []struct {
		name     string
		drive    plan.Drive
		path     string
		capacity int64
		err      string
	}{
		{"scratch", plan.Drive{Name: "s", Size: 4 << 20}, filepath.Join(dir, "out", "scratch-s.img"), 4 << 20, ""},
		{"scratch without a size", plan.Drive{Name: "s"}, "", 0, "needs a size"},
		{"file capped by the plan", plan.Drive{Name: "f", Path: big, Size: 64 << 10}, big, 64 << 10, ""},
		{"file sized by itself", plan.Drive{Name: "f", Path: big}, big, 1 << 20, ""},
		{"file to create", plan.Drive{Name: "n", Path: filepath.Join(dir, "new.img"), Size: 8192}, filepath.Join(dir, "new.img"), 8192, ""},
		{"empty file", plan.Drive{Name: "e", Path: empty}, "", 0, "is empty"},
		{"directory drive", plan.Drive{Name: "d", Directory: filepath.Join(dir, "fs"), Size: 4096}, filepath.Join(dir, "fs", "drivebench-d.img"), 4096, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PlannedTarget(&tt.drive, filepath.Join(dir, "out"))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil || got.Path != tt.path || got.Capacity != tt.capacity || got.LogicalBlockSize() != 4096 {
				t.Errorf("target %+v, %v; want %s of %d bytes", got, err, tt.path, tt.capacity)
			}
		})
	}
	for _, p := range []string{filepath.Join(dir, "out"), filepath.Join(dir, "new.img"), filepath.Join(dir, "fs")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}
