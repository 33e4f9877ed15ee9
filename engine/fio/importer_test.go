package fio

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

var importFixtures = []string{
	"lab-json-psync-2jobs.json", "lab-jsonplus-iouring-qd32.json", "lab-qemu-guest-qd1.json", "lab-qemu-guest-qd32.json",
	"randrw-2jobs.json", "clients-3hosts.json", "verify-error.json",
}

// importAll imports the fixtures into a new folder and reads it back.
func importAll(t *testing.T) (string, map[string]*results.Record) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "imported")
	var files []string
	for _, f := range importFixtures {
		files = append(files, filepath.Join("testdata", f))
	}
	if err := Import(dir, files); err != nil {
		t.Fatal(err)
	}
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := folder.Records()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(folder.Manifest.Steps) {
		t.Fatalf("%d records for %d steps", len(recs), len(folder.Manifest.Steps))
	}
	byName := map[string]*results.Record{}
	for _, r := range recs {
		byName[r.Name] = r
	}
	return dir, byName
}

// TestImportReproducesFio reads the imported records back from disk and
// expects, for every single-job fixture, fio's IOPS, bandwidth, latency
// digest and every printed percentile, to fio's printed precision.
func TestImportReproducesFio(t *testing.T) {
	_, recs := importAll(t)
	for _, c := range []struct{ file, job string }{
		{"lab-jsonplus-iouring-qd32.json", "dio-iouring-qd32"},
		{"lab-qemu-guest-qd1.json", "g1"},
		{"lab-qemu-guest-qd32.json", "g32"},
	} {
		t.Run(c.file, func(t *testing.T) {
			rec := recs[c.file+" / "+c.job]
			if rec == nil || rec.Result == nil || rec.Status != results.StatusOK {
				t.Fatalf("record %+v", rec)
			}
			_, jobs := readFixture(t, c.file)
			want := jobs[0].Read
			got := rec.Result.Read
			checkDir(t, "read", got, want, "clat")
			for k, v := range want.Clat.Percentile {
				p, _ := strconv.ParseFloat(k, 64)
				if s := strconv.FormatUint(storedPercentile(got, p), 10); s != v.String() {
					t.Errorf("stored p%s = %s, fio printed %s", k, s, v)
				}
			}
		})
	}
}

// storedPercentile is the percentile as the record stores it for reports.
func storedPercentile(d *metrics.DirStats, p float64) uint64 {
	for _, q := range d.Lat.Percentiles {
		if q.P == p {
			return q.Ns
		}
	}
	return 0
}

// TestImportMergesJobs: the two jobs of the lab's plain-json run become
// one step with fio's group figures (I/Os over the longest runtime) and no
// percentiles, which cannot be merged without bins; the three hosts of a
// client-mode run become one step with the per-host breakdown.
func TestImportMergesJobs(t *testing.T) {
	_, recs := importAll(t)
	rec := recs["lab-json-psync-2jobs.json / buf-psync-nj2"]
	_, jobs := readFixture(t, "lab-json-psync-2jobs.json")
	var ios, runtime uint64
	for _, j := range jobs {
		n, _ := strconv.ParseUint(j.Read.TotalIOs.String(), 10, 64)
		ios += n
	}
	raw, _ := os.ReadFile(filepath.Join("testdata", "lab-json-psync-2jobs.json"))
	o, _ := Parse(raw)
	for _, j := range o.Jobs {
		runtime = max(runtime, j.figures.read.runtimeMs)
	}
	if got, want := rec.Result.Read.IOPS, float64(ios)*1000/float64(runtime); got != want || rec.Result.Read.IOs != ios {
		t.Errorf("IOPS %f for %d I/Os, want %f for %d", got, rec.Result.Read.IOs, want, ios)
	}
	if len(rec.Result.Read.Lat.Percentiles) != 0 || len(rec.Warnings) != 1 || rec.Warnings[0].Kind != results.WarnNoPercentiles {
		t.Errorf("percentiles %v, warnings %q", rec.Result.Read.Lat.Percentiles, rec.Warnings)
	}
	clients := recs["clients-3hosts.json / client"]
	if clients == nil || len(clients.Result.Hosts) != 3 || clients.Result.Read.Hist == nil {
		t.Fatalf("client-mode record %+v", clients)
	}
	mixed := recs["randrw-2jobs.json / randrw"]
	if mixed == nil || mixed.Result.Read == nil || mixed.Result.Write == nil || len(mixed.Result.Write.Lat.Percentiles) == 0 {
		t.Fatalf("mixed record %+v", mixed)
	}
	failed := recs["verify-error.json / verify"]
	if failed == nil || failed.Status != results.StatusFailed || !strings.Contains(failed.Error, "error 84") {
		t.Fatalf("failed job's record %+v", failed)
	}
}

// TestImportIsDeterministic: the same files give byte-identical folders.
func TestImportIsDeterministic(t *testing.T) {
	a, _ := importAll(t)
	b, _ := importAll(t)
	for _, name := range []string{results.ManifestFile, results.JournalFile} {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if !bytes.Equal(x, y) || len(x) == 0 {
			t.Errorf("%s differs between two imports", name)
		}
	}
}

func TestImportRefusesNonFioFiles(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(bad, []byte("fio: failed parsing rw=sideways\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	err := Import(dir, []string{filepath.Join("testdata", "psync-randread.json"), bad, filepath.Join(t.TempDir(), "missing.json")})
	if err == nil || !strings.Contains(err.Error(), bad+": fio's output holds no JSON report") || !strings.Contains(err.Error(), "missing.json") {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a failed import wrote %s", dir)
	}
}

// TestImportRefusesFiguresThatDoNotAddUp: fio output whose latency bins are
// not numbers, whose bs is not a size, or whose I/O took no time, imports
// as a failed step that says why, never as a measurement (a 0-IOPS "ok").
func TestImportRefusesFiguresThatDoNotAddUp(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"import-bad-bins.json", `job psync-randread read: the latency bins "-1", "abc" are not numbers of ns`},
		{"import-bad-bs.json", "job psync-randread has bs=banana, which is not a block size"},
		{"import-zero-runtime.json", "job psync-randread read: 667350 I/Os in a runtime of 0 ms, so no rate can be computed from them"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "imported")
			if err := Import(dir, []string{filepath.Join("testdata", tc.file)}); err != nil {
				t.Fatal(err)
			}
			folder, err := results.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := folder.Records()
			if err != nil || len(recs) != 1 {
				t.Fatalf("%d records (%v)", len(recs), err)
			}
			if recs[0].Status != results.StatusFailed || !strings.HasSuffix(recs[0].Error, tc.want) {
				t.Errorf("status %s, error %q\nwant failed, ending %q", recs[0].Status, recs[0].Error, tc.want)
			}
		})
	}
}
