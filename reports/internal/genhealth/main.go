// Command genhealth writes the health document of the reports' qemu
// fixture, testdata/qemu/health/nvme0.json: what the engine would have
// stored for that run on QEMU's emulated controller. Its before snapshot
// is the controller's real pages (nvme/testdata), taken as the resumed
// run started; the after snapshot adds what that run's records read and
// wrote, as QEMU counts them. The document is an input of the golden
// reports, so it is made here, by go generate ./reports, and not by the
// golden tests' -update, which rewrites only what the reports are
// expected to be; its test fails while the file is not what this writes.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/nvme/nvmetest"
	"github.com/drivebench/drivebench/results"
)

func main() {
	run := flag.String("run", "testdata/qemu", "the results folder of the qemu fixture")
	pages := flag.String("pages", "../nvme/testdata", "the folder of QEMU's NVMe pages")
	flag.Parse()
	if err := write(*run, *pages); err != nil {
		fmt.Fprintln(os.Stderr, "genhealth:", err)
		os.Exit(1)
	}
}

// write writes the health document into the run's folder.
func write(run, pages string) error {
	data, err := document(run, pages)
	if err != nil {
		return err
	}
	path := filepath.Join(run, results.HealthDir, "nvme0.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// document is the health document of the run's drive, indented JSON.
func document(run, pages string) ([]byte, error) {
	f, err := results.Open(run)
	if err != nil {
		return nil, err
	}
	recs, err := f.Records()
	if err != nil {
		return nil, err
	}
	// The resumed run started 350 ms before its manifest was written;
	// the after snapshot was taken 120 ms after its last step ended.
	start := f.Manifest.Created.Add(-350 * time.Millisecond)
	var read, written, readIOs, writeIOs uint64
	var end time.Time
	for _, r := range recs {
		if !r.Started.After(start) {
			continue
		}
		if r.Finished.After(end) {
			end = r.Finished
		}
		if r.Result == nil || r.Kind != "profile" && r.Kind != "precondition" {
			continue
		}
		if d := r.Result.Read; d != nil {
			read, readIOs = read+d.Bytes, readIOs+d.IOs
		}
		if d := r.Result.Write; d != nil {
			written, writeIOs = written+d.Bytes, writeIOs+d.IOs
		}
	}
	before, err := nvmetest.QEMUSnapshot(pages, start)
	if err != nil {
		return nil, err
	}
	after := nvmetest.After(before, end.Add(120*time.Millisecond), read, written, readIOs, writeIOs)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(engine.HealthRecord("nvme0", before, after, written, "")); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
