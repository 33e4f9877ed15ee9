package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/drivebench/drivebench/results"
)

// TestFixtureIsCurrent: the qemu fixture's health document is what this
// command writes from the fixture's records and QEMU's pages.
func TestFixtureIsCurrent(t *testing.T) {
	run := filepath.Join("..", "..", "testdata", "qemu")
	got, err := document(run, filepath.Join("..", "..", "..", "nvme", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(run, results.HealthDir, "nvme0.json")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what genhealth writes; run go generate ./reports and review the diff of the fixture and of the golden reports (go test ./reports -update)", path)
	}
}
