package reports

import (
	"bytes"
	"flag"
	"path/filepath"
	"slices"
	"testing"

	"github.com/drivebench/drivebench/results"
)

// The reports' inputs, the results folders under testdata/, are never
// rewritten by -update, which rewrites only what the reports are expected
// to be (testdata/golden/). The one made by a program, the qemu fixture's
// health document, is made by go generate ./reports.
//
//go:generate go run ./internal/genhealth

var update = flag.Bool("update", false, "rewrite the expected reports under testdata/golden/ (never their inputs: go generate ./reports)")

// loadRun reads a results folder the way the report command does.
func loadRun(t testing.TB, dir string) (*results.Manifest, []*results.Record) {
	t.Helper()
	f, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := f.Records()
	if err != nil {
		t.Fatal(err)
	}
	return f.Manifest, recs
}

// mustLoad builds the Summary of a fixture run under testdata/.
func mustLoad(t testing.TB, run string) *Summary {
	t.Helper()
	s, err := Load(filepath.Join("testdata", run))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// goldenCases are the reports held under testdata/golden/<name>/: every
// file Render writes in every format, charts included.
var goldenCases = []struct {
	name    string
	summary func(t testing.TB) *Summary
}{
	// One drive, a queue-depth sweep and a failed step.
	{"quickstart", func(t testing.TB) *Summary { return mustLoad(t, "quickstart") }},
	// A rate curve, an iodepth x numjobs matrix, a two-hour write
	// saturation, a mixed sweep and a single run, beside a comparable
	// drive measured on another testbed.
	{"review", func(t testing.TB) *Summary {
		s := mustLoad(t, "review")
		s.AddComparable("review-cd6", mustLoad(t, "review-cd6"))
		return s
	}},
	// QEMU's emulated NVMe controller resumed under a changed plan: a
	// steady-state search, a rate curve cut short by its stop condition,
	// repeated rounds averaged, an interrupted step, the drive's identity
	// and SMART counters before and after.
	{"qemu", func(t testing.TB) *Summary { return mustLoad(t, "qemu") }},
	// A scratch file held to the KIOXIA CD6-R's spec sheet: sequential
	// and random sweeps, an expectation that failed, every figure of the
	// sheet judged (warnings beyond the sweep's depth, figures for PCIe
	// Gen 3 and endurance skipped), and the summary hook's table and chart.
	{"vendor-acceptance", func(t testing.TB) *Summary { return mustLoad(t, "vendor-acceptance") }},
	// An adaptive search for the deepest queue under a p99 limit, its
	// points in search order, and a steady-state search under the plan's
	// own rule whose hook failed.
	{"latency-qos", func(t testing.TB) *Summary { return mustLoad(t, "latency-qos") }},
	// sysbench fileio on the file system of the results folder: for_each
	// instances as the runs of one application, two of them failed with
	// their output's last lines, expectations on the parsed metrics.
	{"sysbench-fileio", func(t testing.TB) *Summary { return mustLoad(t, "sysbench-fileio") }},
	// sysbench OLTP against a PostgreSQL server the plan ran as the
	// postgres account: TPS, QPS and latency beside the steps that set
	// the server up and stopped it.
	{"postgres-oltp", func(t testing.TB) *Summary { return mustLoad(t, "postgres-oltp") }},
	// MLPerf Storage's 8B checkpoint scaled to 21 MB, two passes of a
	// file per rank written, flushed and read back after the page cache
	// was dropped, and a zipf-skewed read of 64 small files in 4 folders
	// whose setup was measured and whose files it removed, on tmpfs.
	{"checkpoint", func(t testing.TB) *Summary { return mustLoad(t, "checkpoint") }},
	// examples/vdi-replay at ten times the traces' speed: the boot and
	// login traces' fidelity, lag and statistics, their run over 0.6 s of
	// run time and their IOPS, latency and lag over the traces' 6 s and
	// 3 s of trace time.
	{"replay", func(t testing.TB) *Summary { return mustLoad(t, "replay") }},
}

// TestGolden renders each case in every format and compares every file
// with testdata/golden/<case>/, report.json part by part (see
// goldenFiles); -update rewrites them and removes golden files a case no
// longer writes.
func TestGolden(t *testing.T) {
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			s := gc.summary(t)
			files, err := Render(s, Formats)
			if err != nil {
				t.Fatal(err)
			}
			junit, err := JUnit(s)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, File{Name: "junit.xml", Data: junit})
			dir := filepath.Join("testdata", "golden", gc.name)
			checkGoldenDir(t, dir, goldenFiles(t, files))
		})
	}
}

// TestBuildIgnoresRecordOrder checks that the manifest, not the order the
// records arrive in, orders the report.
func TestBuildIgnoresRecordOrder(t *testing.T) {
	m, recs := loadRun(t, filepath.Join("testdata", "quickstart"))
	var inOrder, reversed bytes.Buffer
	if err := WriteJSON(&inOrder, Build(m, recs)); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(recs)
	if err := WriteJSON(&reversed, Build(m, recs)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(inOrder.Bytes(), reversed.Bytes()) {
		t.Error("the report changed when the records came in reverse order")
	}
}
