package fio

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/workload"
)

// needFio ends the test when fio is not installed.
func needFio(t testing.TB) {
	t.Helper()
	testenv.Command(t, "fio", "fio")
}

// dataFile creates a file of size bytes of random data, so that reads
// touch real blocks rather than holes.
func dataFile(t testing.TB, size int64) driver.Target {
	t.Helper()
	path := filepath.Join(t.TempDir(), "target.dat")
	buf := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i+8 <= len(buf); i += 8 {
		v := r.Uint64()
		for b := range 8 {
			buf[i+b] = byte(v >> (8 * b))
		}
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	return driver.Target{Path: path, Capacity: size}
}

// randRead is a small time-based random-read workload.
func randRead(runtime time.Duration) workload.Workload {
	return workload.Workload{RW: "randread", ReadPct: 100, BS: 4096, IODepth: 1, NumJobs: 1, Runtime: runtime, Engine: "fio", Seed: 7}
}
