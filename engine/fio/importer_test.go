package fio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
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
	if err := Import(dir, files, nil); err != nil {
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
	err := Import(dir, []string{filepath.Join("testdata", "psync-randread.json"), bad, filepath.Join(t.TempDir(), "missing.json")}, nil)
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
			if err := Import(dir, []string{filepath.Join("testdata", tc.file)}, nil); err != nil {
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

// TestImportAppendedRuns: a file holding two fio runs appended imports as
// two steps, named and numbered by report, each with the figures fio
// printed in its own report.
func TestImportAppendedRuns(t *testing.T) {
	file := filepath.Join("testdata", "appended-2runs.json")
	raw := readTestdata(t, file[len("testdata/"):])
	dir := filepath.Join(t.TempDir(), "imported")
	if err := Import(dir, []string{file}, nil); err != nil {
		t.Fatal(err)
	}
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := folder.Records()
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records (%v), want one per run", len(recs), err)
	}
	byName := map[string]*results.Record{}
	for _, r := range recs {
		byName[r.Name] = r
	}
	for i, line := range []int{2, 276} {
		name := "appended-2runs.json report " + strconv.Itoa(i+1) + " / seqrand"
		rec := byName[name]
		if rec == nil {
			t.Fatalf("no record %q among %v", name, slices.Collect(maps.Keys(byName)))
		}
		start := 0
		for range line - 1 {
			start += bytes.IndexByte(raw[start:], '\n') + 1
		}
		var report struct {
			Jobs []fixtureJob `json:"jobs"`
		}
		dec := json.NewDecoder(bytes.NewReader(raw[start:]))
		dec.UseNumber()
		if err := dec.Decode(&report); err != nil {
			t.Fatal(err)
		}
		want, _ := report.Jobs[0].Read.IOPS.Float64()
		if got := rec.Result.Read.IOPS; math.Abs(got-want) > 1e-6*want {
			t.Errorf("%s: %v IOPS, fio printed %v in the report at line %d", name, got, want, line)
		}
		if !slices.ContainsFunc(rec.Point, func(p workload.Param) bool { return p.Name == "report" && fmt.Sprint(p.Value) == strconv.Itoa(i+1) }) {
			t.Errorf("%s: point %v lacks its report", name, rec.Point)
		}
		// fio's bs=4k and bs=16k read as a plan's sizes, by the table
		if bs, _ := rec.Point.Get("bs"); bs != []any{int64(4096), int64(16384)}[i] {
			t.Errorf("%s: point %s has bs %v (%T), want fio's bs as bytes", name, rec.Point, bs, bs)
		}
		note := "appended-2runs.json holds the reports of 2 fio runs appended one after another; this is report " + strconv.Itoa(i+1) + " of 2 (line " + strconv.Itoa(line) + ")"
		if !strings.Contains(strings.Join(rec.Log, "\n"), note) {
			t.Errorf("%s: notes %q lack %q", name, rec.Log, note)
		}
	}
	if !strings.Contains(strings.Join(byName["appended-2runs.json report 2 / seqrand"].Log, "\n"), `"fio: this line and the next were typed after the runs", "{ not a report"`) {
		t.Errorf("the text after the runs is not in the last run's notes")
	}
}

// TestImportRefusesWhatItCannotRead: a file whose second report was cut
// short is refused at the report's place, with what to do, and nothing
// is written; so are two runs of one exported step.
func TestImportRefusesWhatItCannotRead(t *testing.T) {
	exported := func(iops int) string {
		desc, _ := json.Marshal(identityPrefix + `{"plan":"p","step":"0123456789abcdef","name":"d / p","kind":"profile","source":"p","drive":"d"}`)
		return `{"fio version": "fio-3.33", "timestamp_ms": ` + strconv.Itoa(1000+iops) + `, "jobs": [{"jobname": "p", "job options": {"description": ` + string(desc) +
			`}, "read": {"total_ios": ` + strconv.Itoa(iops) + `, "io_bytes": 4096, "runtime": 1000}}]}` + "\n"
	}
	twice := filepath.Join(t.TempDir(), "twice.json")
	if err := os.WriteFile(twice, []byte(exported(1)+exported(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join("testdata", "appended-cut.json")
	tests := []struct {
		file, want string
	}{
		{cut, cut + ":276:1: byte 6775: a fio report starts here but the output ends inside it, 400 bytes later: it was cut short; use fio's complete output, or keep only the reports before it (truncate -s 6775 " + cut + ")"},
		{twice, twice + " report 1 of 2 (line 1) job p and " + twice + " report 2 of 2 (line 2) job p both ran step 0123456789abcdef; a results folder keeps one record per step, so import them into separate folders"},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "imported")
			err := Import(dir, []string{tt.file}, nil)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error\n%v\nwant\n%s", err, tt.want)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("a refused import wrote %s", dir)
			}
		})
	}
}
