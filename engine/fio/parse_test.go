package fio

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
)

// fixtureJob is a job entry of a fixture with fio's numbers as printed.
type fixtureJob struct {
	Name  string     `json:"jobname"`
	Error int        `json:"error"`
	Read  fixtureDir `json:"read"`
	Write fixtureDir `json:"write"`
}

type fixtureDir struct {
	IOPS     json.Number `json:"iops"`
	BWBytes  json.Number `json:"bw_bytes"`
	TotalIOs json.Number `json:"total_ios"`
	Clat     fixtureLat  `json:"clat_ns"`
	Lat      fixtureLat  `json:"lat_ns"`
}

type fixtureLat struct {
	Min        json.Number            `json:"min"`
	Max        json.Number            `json:"max"`
	Mean       json.Number            `json:"mean"`
	Stddev     json.Number            `json:"stddev"`
	N          json.Number            `json:"N"`
	Percentile map[string]json.Number `json:"percentile"`
	Bins       map[string]uint64      `json:"bins"`
}

// readFixture returns a fixture's bytes and its last report's job
// entries, decoded with fio's numbers kept as text.
func readFixture(t testing.TB, name string) ([]byte, []fixtureJob) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s := scan(raw)
	if len(s.reports) == 0 {
		return raw, nil
	}
	var r struct {
		Jobs    []fixtureJob `json:"jobs"`
		Clients []fixtureJob `json:"client_stats"`
	}
	dec := json.NewDecoder(bytes.NewReader(s.reports[len(s.reports)-1].raw))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return raw, append(r.Jobs, r.Clients...)
}

func parseFixture(t testing.TB, name string) *Output {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	o, err := Parse(raw)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return o
}

// reportFixtures are the fixtures that hold a complete report.
var reportFixtures = []string{
	"lab-json-psync-2jobs.json", "lab-jsonplus-iouring-qd32.json", "lab-qemu-guest-qd1.json", "lab-qemu-guest-qd32.json",
	"psync-randread.json", "randrw-2jobs.json", "randrw-group.json", "lat-percentiles.json", "note-before-json.json",
	"verify-error.json", "clients-3hosts.json", "clients-host-killed.json", "status-interval-sigint.json", "truncated.json",
}

// TestParseReproducesFio checks every job of every fixture against the
// figures fio printed, to fio's printed precision: IOPS to 6 decimals,
// bandwidth in whole bytes, the latency digest, and every percentile, read
// from the imported bins when the output has them and brought within the
// min and max.
func TestParseReproducesFio(t *testing.T) {
	for _, name := range reportFixtures {
		t.Run(name, func(t *testing.T) {
			_, want := readFixture(t, name)
			o := parseFixture(t, name)
			var jobs []fixtureJob
			for _, j := range want {
				if j.Name != allClients {
					jobs = append(jobs, j)
				}
			}
			if len(o.Jobs) != len(jobs) {
				t.Fatalf("%d jobs, fio printed %d", len(o.Jobs), len(jobs))
			}
			for i, j := range o.Jobs {
				res := j.Result()
				checkDir(t, j.Name+" read", res.Read, jobs[i].Read, o.Latency)
				checkDir(t, j.Name+" write", res.Write, jobs[i].Write, o.Latency)
				if j.Error != jobs[i].Error {
					t.Errorf("%s: error %d, fio printed %d", j.Name, j.Error, jobs[i].Error)
				}
			}
		})
	}
}

func checkDir(t *testing.T, what string, got *metrics.DirStats, want fixtureDir, measure string) {
	t.Helper()
	if want.TotalIOs.String() == "0" {
		if got != nil {
			t.Errorf("%s: fio did no I/O, got %+v", what, got)
		}
		return
	}
	if got == nil {
		t.Fatalf("%s: no figures", what)
	}
	if s := strconv.FormatFloat(got.IOPS, 'f', 6, 64); s != want.IOPS.String() {
		t.Errorf("%s: IOPS %s, fio printed %s", what, s, want.IOPS)
	}
	if s := strconv.FormatFloat(got.BW, 'f', -1, 64); s != want.BWBytes.String() {
		t.Errorf("%s: bandwidth %s, fio printed %s", what, s, want.BWBytes)
	}
	lat := want.Clat
	if measure == "lat" {
		lat = want.Lat
	}
	checkLat(t, what, got, lat)
}

func checkLat(t *testing.T, what string, got *metrics.DirStats, want fixtureLat) {
	t.Helper()
	if s := strconv.FormatUint(got.Lat.Min, 10) + "/" + strconv.FormatUint(got.Lat.Max, 10); s != want.Min.String()+"/"+want.Max.String() {
		t.Errorf("%s: min/max %s, fio printed %s/%s", what, s, want.Min, want.Max)
	}
	if s := strconv.FormatFloat(got.Lat.Mean, 'f', 6, 64); s != want.Mean.String() {
		t.Errorf("%s: mean %s, fio printed %s", what, s, want.Mean)
	}
	if s := strconv.FormatFloat(got.Lat.Stddev, 'f', 6, 64); s != want.Stddev.String() {
		t.Errorf("%s: stddev %s, fio printed %s", what, s, want.Stddev)
	}
	if len(want.Percentile) == 0 {
		return
	}
	if (got.Hist != nil) != (len(want.Bins) > 0) {
		t.Errorf("%s: histogram %v, fio printed bins %v", what, got.Hist != nil, len(want.Bins) > 0)
	}
	// fio prints a percentile as its bucket's middle, which may lie
	// beyond the max or below the min; drivebench's lies within them
	lo, _ := strconv.ParseUint(want.Min.String(), 10, 64)
	hi, _ := strconv.ParseUint(want.Max.String(), 10, 64)
	for k, v := range want.Percentile {
		p, _ := strconv.ParseFloat(k, 64)
		printed, _ := strconv.ParseUint(v.String(), 10, 64)
		if got, want := got.Quantile(p), min(max(printed, lo), hi); got != want {
			t.Errorf("%s: p%s = %d, fio printed %s, within [min, max] %d", what, k, got, v, want)
		}
	}
}

// TestMergeMatchesFioAllClients merges the hosts of client-mode runs and
// expects fio's own "All clients" sum: IOPS and bandwidth exactly, the
// latency digest to fio's printed precision.
func TestMergeMatchesFioAllClients(t *testing.T) {
	for _, name := range []string{"clients-3hosts.json", "clients-host-killed.json"} {
		t.Run(name, func(t *testing.T) {
			_, jobs := readFixture(t, name)
			var all *fixtureJob
			for i := range jobs {
				if jobs[i].Name == allClients {
					all = &jobs[i]
				}
			}
			if all == nil {
				t.Fatal("fixture has no All clients entry")
			}
			got := parseFixture(t, name).Result()
			w := all.Read
			if s := strconv.FormatFloat(got.Read.IOPS, 'f', 6, 64); s != w.IOPS.String() {
				t.Errorf("IOPS %s, fio summed %s", s, w.IOPS)
			}
			if s := strconv.FormatFloat(got.Read.BW, 'f', -1, 64); s != w.BWBytes.String() {
				t.Errorf("bandwidth %s, fio summed %s", s, w.BWBytes)
			}
			checkNear(t, "mean", got.Read.Lat.Mean, w.Clat.Mean, 1e-12)
			checkNear(t, "stddev", got.Read.Lat.Stddev, w.Clat.Stddev, 1e-9)
			if s := strconv.FormatUint(got.Read.Lat.Min, 10); s != w.Clat.Min.String() {
				t.Errorf("min %s, fio %s", s, w.Clat.Min)
			}
			if got.Read.Hist == nil || strconv.FormatUint(got.Read.Hist.Count(), 10) != w.Clat.N.String() {
				t.Errorf("merged histogram does not hold fio's %s samples", w.Clat.N)
			}
		})
	}
}

func checkNear(t *testing.T, what string, got float64, want json.Number, rel float64) {
	t.Helper()
	w, _ := want.Float64()
	if math.Abs(got-w) > rel*math.Abs(w)+5e-7 {
		t.Errorf("%s %v, fio printed %s", what, got, want)
	}
}

func TestParseShapes(t *testing.T) {
	cases := []struct {
		fixture   string
		jobs      int
		hosts     []string
		latency   string
		truncated bool
		message   string
		bins      bool
	}{
		{fixture: "lab-json-psync-2jobs.json", jobs: 2, latency: "clat"},
		{fixture: "lab-jsonplus-iouring-qd32.json", jobs: 1, latency: "clat", bins: true},
		{fixture: "randrw-2jobs.json", jobs: 2, latency: "clat", bins: true},
		{fixture: "randrw-group.json", jobs: 1, latency: "clat", bins: true},
		{fixture: "lat-percentiles.json", jobs: 1, latency: "lat", bins: true},
		{fixture: "note-before-json.json", jobs: 1, latency: "clat", bins: true, message: "queue depth will be capped at 1"},
		{fixture: "clients-3hosts.json", jobs: 3, latency: "clat", bins: true, hosts: []string{"127.0.0.1,18603", "127.0.0.1,18602", "127.0.0.1,18601"}},
		{fixture: "clients-host-killed.json", jobs: 2, latency: "clat", bins: true, hosts: []string{"127.0.0.1,18601", "127.0.0.1,18603"}, message: "client: host=127.0.0.1 disconnected"},
		{fixture: "status-interval-sigint.json", jobs: 1, latency: "clat", bins: true},
		{fixture: "truncated.json", jobs: 1, latency: "clat", bins: true, truncated: true},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			o := parseFixture(t, tc.fixture)
			if len(o.Jobs) != tc.jobs || o.Latency != tc.latency || o.Truncated != tc.truncated {
				t.Errorf("jobs %d latency %s truncated %v, want %d %s %v", len(o.Jobs), o.Latency, o.Truncated, tc.jobs, tc.latency, tc.truncated)
			}
			if o.Version != "fio-3.33" || o.Time.IsZero() {
				t.Errorf("version %q time %v", o.Version, o.Time)
			}
			for i, h := range tc.hosts {
				if o.Jobs[i].Host != h {
					t.Errorf("job %d host %q, want %q", i, o.Jobs[i].Host, h)
				}
			}
			if tc.message != "" && !strings.Contains(strings.Join(o.Messages, "\n"), tc.message) {
				t.Errorf("messages %q lack %q", o.Messages, tc.message)
			}
			if r := o.Result(); (r.Read.Hist != nil) != tc.bins {
				t.Errorf("merged histogram %v, want %v", r.Read.Hist != nil, tc.bins)
			}
			if len(o.Warnings) > 0 {
				t.Errorf("warnings: %q", o.Warnings)
			}
		})
	}
}

// TestParseTakesLastReport: with --status-interval fio prints a report a
// second; the last one is the run's result.
func TestParseTakesLastReport(t *testing.T) {
	_, jobs := readFixture(t, "status-interval-sigint.json")
	o := parseFixture(t, "status-interval-sigint.json")
	if got, want := strconv.FormatUint(o.Jobs[0].Result().Read.IOs, 10), jobs[0].Read.TotalIOs.String(); got != want {
		t.Errorf("%s I/Os, the final report has %s", got, want)
	}
	trunc := parseFixture(t, "truncated.json")
	if trunc.Jobs[0].Result().Read.IOs >= o.Jobs[0].Result().Read.IOs {
		t.Error("the truncated output should give the earlier, smaller status report")
	}
}

func TestParseMergedJobsDropPrintedPercentiles(t *testing.T) {
	_, jobs := readFixture(t, "lab-json-psync-2jobs.json")
	r := parseFixture(t, "lab-json-psync-2jobs.json").Result()
	if len(r.Read.Lat.Percentiles) != 0 || r.Read.Hist != nil {
		t.Errorf("percentiles of two jobs without bins cannot be merged, got %v", r.Read.Lat.Percentiles)
	}
	var want uint64
	for _, j := range jobs {
		n, _ := strconv.ParseUint(j.Read.TotalIOs.String(), 10, 64)
		want += n
	}
	if r.Read.IOs != want {
		t.Errorf("merged %d I/Os, the jobs did %d", r.Read.IOs, want)
	}
}

func TestParseVerifyError(t *testing.T) {
	o := parseFixture(t, "verify-error.json")
	if o.Jobs[0].Error != 84 {
		t.Errorf("error %d, want 84 (EILSEQ)", o.Jobs[0].Error)
	}
}

func TestParseFailures(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"empty", "", "holds no JSON report"},
		{"fio's error only", "fio: failed parsing rw=sideways\nfio: job global dropped\n", "it says: fio: failed parsing rw=sideways / fio: job global dropped"},
		{"cut at the start", "fio: terminating on signal 9\n{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [", "a JSON report cut short; it says: fio: terminating on signal 9"},
		{"json but no report", `{"hello": "world"}`, "holds no JSON report"},
		{"bad job type", `{"fio version": "fio-3.33", "jobs": [{"jobname": 7}]}`, "fio's JSON report"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParseToleratesNaN(t *testing.T) {
	in := `{"fio version": "fio-3.33", "jobs": [{"jobname": "x", "read": {"total_ios": 2, "io_bytes": 8192, "runtime": 1000,
	  "clat_ns": {"min": 1, "max": 3, "mean": 2.0, "stddev": -nan, "N": 2}, "lat_ns": {"N": 2, "mean": nan}}}]}`
	o, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if r := o.Result(); r.Read.IOPS != 2 || r.Read.Lat.Stddev != 0 {
		t.Errorf("read %+v", r.Read)
	}
}

func FuzzParse(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("testdata", "verify-error.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add(raw[:len(raw)/2])
	f.Add(append([]byte("client: host=10.0.0.2 disconnected\n"), raw...))
	f.Add([]byte(`junk {"fio version":"x","jobs":[{"read":{"total_ios":1,"runtime":0,"clat_ns":{"N":1,"bins":{"5":1}}}}]} tail {`))
	f.Fuzz(func(t *testing.T, in []byte) {
		o, err := Parse(in)
		if err != nil {
			return
		}
		r := o.Result()
		if r == nil && len(o.Jobs) > 0 {
			t.Fatal("jobs but no result")
		}
		var ios uint64
		for _, j := range o.Jobs {
			if d := j.Result().Read; d != nil {
				ios += d.IOs
			}
		}
		if r != nil && r.Read != nil && r.Read.IOs != ios {
			t.Fatalf("merged %d read I/Os, jobs hold %d", r.Read.IOs, ios)
		}
	})
}
