package fio

import (
	"strings"
	"testing"

	"github.com/drivebench/drivebench/workload"
)

// TestDriverRefusesFileSets: the fio engine does not run a file set (its
// record would lack the file operations and the jobs' seconds), and says
// what to do; export writes the job all the same.
func TestDriverRefusesFileSets(t *testing.T) {
	w := workload.Workload{RW: "read", ReadPct: 100, BS: 4096, IODepth: 1, NumJobs: 1, Files: 4, FileSize: 1 << 20, Loops: 1}
	err := Driver{}.Check(w)
	if err == nil || !strings.Contains(err.Error(), `use engine = "native"`) {
		t.Fatalf("Check: %v, want the file set refused with what to do", err)
	}
	if _, err := JobFile("set", mnt, w); err != nil {
		t.Fatalf("JobFile: %v", err)
	}
	w.Files = 0
	if err := (Driver{}).Check(w); err != nil && strings.Contains(err.Error(), "file set") {
		t.Errorf("a workload without files is refused as a file set: %v", err)
	}
}
