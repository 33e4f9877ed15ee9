package figure

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
)

// point is a fixture point whose every figure differs from the others.
var point = &metrics.DirStats{
	IOs: 60000, Bytes: 245760000, IOPS: 1000, BW: 4096000,
	Lat: metrics.LatencySummary{Min: 10000, Max: 900000, Mean: 50000, Stddev: 7000, Percentiles: []metrics.Percentile{
		{P: 50, Ns: 40000}, {P: 90, Ns: 60000}, {P: 95, Ns: 70000}, {P: 99, Ns: 100000}, {P: 99.9, Ns: 300000}, {P: 99.99, Ns: 800000}, {P: 99.999, Ns: 850000},
	}},
	Service: &metrics.LatencySummary{Mean: 30000, Percentiles: []metrics.Percentile{{P: 99, Ns: 90000}}},
}

// TestRead reads every row from the fixture point: a new row comes with
// its expected value here.
func TestRead(t *testing.T) {
	want := map[string]float64{
		"iops": 1000, "bw": 4096000, "mean": 50000, "min": 10000, "max": 900000, "stddev": 7000,
		"p50": 40000, "p90": 60000, "p95": 70000, "p99": 100000, "p99_9": 300000, "p99_99": 800000, "p99_999": 850000,
		"service_mean": 30000, "service_p99": 90000,
	}
	for _, f := range Figures {
		if f.Read == nil {
			continue
		}
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("figure %s: no expected value for the fixture point", f.Name)
			continue
		}
		if got := f.Read(point); got != w {
			t.Errorf("figure %s reads %v, want %v", f.Name, got, w)
		}
		if f.Unit == Nanoseconds {
			if got := f.Value(Expect, point); got != w/1e3 {
				t.Errorf("figure %s in an expectation reads %v, want %v µs", f.Name, got, w/1e3)
			}
		}
	}
	paced := *point
	paced.Service = nil
	if got := Lookup("service_p99").Read(&paced); got != 100000 {
		t.Errorf("service_p99 of an unpaced point reads %v, want its completion p99 100000", got)
	}
}

// loader is a fixture dataloader whose every figure differs from the
// others.
var loader = &metrics.Dataloader{AU: 0.75, SamplesPerSec: 1234, BatchWait: metrics.LatencySummary{Max: 90000, Mean: 20000,
	Percentiles: []metrics.Percentile{{P: 50, Ns: 10000}, {P: 99, Ns: 80000}}}}

// TestReadDataloader reads every dataloader row from the fixture, in
// its unit and in an expectation's: a new row comes with its value here.
func TestReadDataloader(t *testing.T) {
	want := map[string]float64{"au": 0.75, "samples_per_s": 1234, "batch_wait_mean": 20000, "batch_wait_p50": 10000, "batch_wait_p99": 80000, "batch_wait_max": 90000}
	for _, f := range In(Dataloader) {
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("figure %s: no expected value for the fixture dataloader", f.Name)
			continue
		}
		inExpect := w
		if f.Unit == Nanoseconds {
			inExpect = w / 1e3
		}
		if got, gotExpect := f.ReadDataloader(loader), f.DataloaderValue(Dataloader, loader); got != w || gotExpect != inExpect {
			t.Errorf("figure %s reads %v (%v in an expectation), want %v (%v)", f.Name, got, gotExpect, w, inExpect)
		}
	}
	if keys := Keys(Dataloader); !slices.Equal(keys, []string{"au", "samples_per_s", "batch_wait_mean_us", "batch_wait_p50_us", "batch_wait_p99_us", "batch_wait_max_us"}) {
		t.Errorf("a dataloader's expectation names %v", keys)
	}
}

// TestRows checks what every row must say, and that names are unique in
// every place.
func TestRows(t *testing.T) {
	for _, p := range places {
		seen := map[string]string{}
		for _, f := range Figures {
			names := f.Old[p.place]
			if f.In&p.place != 0 {
				names = append([]string{f.Key(p.place)}, names...)
			}
			for _, n := range names {
				if other, dup := seen[n]; dup {
					t.Errorf("%s: %q names both %s and %s", p.name, n, other, f.Name)
				}
				seen[n] = f.Name
			}
		}
	}
	for _, f := range Figures {
		switch {
		case f.Name == "" || f.Title == "" || f.Doc == "" || readers(&f) != 1 || f.In == 0:
			t.Errorf("figure %q lacks a name, title, doc line, reader (one of four) or place", f.Name)
		case (f.ReadDataloader != nil) != (f.In&^KindColumn == Dataloader):
			t.Errorf("figure %s: a dataloader's figure is known in place %s (and the catalog's) alone, and only a dataloader's is", f.Name, Dataloader)
		case (f.ReadReplay != nil) != (f.In&^KindColumn == Replay):
			t.Errorf("figure %s: a replay's figure is known in place %s (and the catalog's) alone, and only a replay's is", f.Name, Replay)
		case (f.ReadFiles != nil) != (f.In&^(Checkpoint|KindColumn) == Files):
			t.Errorf("figure %s: a file set's figure is known in place %s (and a checkpoint's and the catalog's) alone, and only a file set's is", f.Name, Files)
		case f.In&KindColumn != 0 && f.In&(Dataloader|Replay|Files) == 0:
			t.Errorf("figure %s: a catalog column of a step kind is a figure of a kind of step (%s)", f.Name, Dataloader|Replay|Files)
		case f.In&Checkpoint != 0 && f.Merge != Totals:
			t.Errorf("figure %s: a checkpoint's figure is a phase's total, not merged by %s", f.Name, f.Merge)
		case f.Unit == Nanoseconds && f.Latency == "", f.Unit != Nanoseconds && f.Latency != "":
			t.Errorf("figure %s: unit %s with latency %q", f.Name, f.Unit, f.Latency)
		case f.Merge != Add && f.Merge != Histogram && f.Merge != Totals:
			t.Errorf("figure %s: merge %q", f.Name, f.Merge)
		case !strings.HasSuffix(f.Doc, "."):
			t.Errorf("figure %s: doc line %q is not a sentence", f.Name, f.Doc)
		}
	}
}

// TestResolve resolves every key and every old name in its place, and
// refuses names a place does not know.
func TestResolve(t *testing.T) {
	for _, f := range Figures {
		for _, p := range places {
			if f.In&p.place != 0 {
				if got, old := Resolve(p.place, f.Key(p.place)); got == nil || got.Name != f.Name || old {
					t.Errorf("%s %q resolves to %v (old %v), want %s", p.name, f.Key(p.place), got, old, f.Name)
				}
			}
			for _, o := range f.Old[p.place] {
				if got, old := Resolve(p.place, o); got == nil || got.Name != f.Name || !old {
					t.Errorf("%s old name %q resolves to %v (old %v), want %s, old", p.name, o, got, old, f.Name)
				}
			}
		}
	}
	for _, tc := range []struct {
		place Place
		name  string
	}{
		{Steady, "p99_us"}, {Steady, "lat_p999"}, {Expect, "p99"}, {Option, "lat_p99"}, {Report, "p99_us"}, {Hook, "p99"},
	} {
		if f, _ := Resolve(tc.place, tc.name); f != nil {
			t.Errorf("%s %q resolves to %s, want nothing", tc.place, tc.name, f.Name)
		}
	}
}

// TestKeysByPlace pins the names the published formats and the places
// users write in.
func TestKeysByPlace(t *testing.T) {
	for _, tc := range []struct {
		place Place
		want  []string
	}{
		{Steady, []string{"iops", "bw", "mean", "p99", "p99_9"}},
		{Report, []string{"iops", "bw_bytes", "mean_lat_ns", "p50_ns", "p99_ns", "p99_9_ns", "service_mean_lat_ns", "service_p99_ns"}},
		{Column, []string{"iops", "bw_bytes", "lat_mean_ns", "lat_min_ns", "lat_max_ns", "lat_stddev_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "p9999_ns"}},
		{Spec, []string{"iops", "bw", "lat_us", "p50_us", "p90_us", "p95_us", "p99_us", "p999_us", "p9999_us"}},
		{Stop, []string{"mean", "p50", "p90", "p95", "p99", "p99_9", "p99_99", "p99_999"}},
		{Event, []string{"iops", "bw_bytes", "lat_mean_ns", "lat_p99_ns"}},
	} {
		if got := Keys(tc.place); !slices.Equal(got, tc.want) {
			t.Errorf("Keys(%s) = %q, want %q", tc.place, got, tc.want)
		}
	}
}

func TestSpecFigure(t *testing.T) {
	for _, tc := range []struct {
		key   string
		name  string
		p     float64
		value float64
	}{
		{"lat_us", "mean", 0, 50},
		{"p999_us", "p99_9", 99.9, 300},
		{"p9995_us", "p9995", 99.95, 800},
		{"iops", "iops", 0, 1000},
	} {
		f, ok := SpecFigure(tc.key)
		if !ok || f.Name != tc.name || f.Percentile != tc.p || f.Value(Spec, point) != tc.value || f.Key(Spec) != tc.key {
			t.Errorf("SpecFigure(%q) = %+v, %v; want %s, p%v, reading %v", tc.key, f, ok, tc.name, tc.p, tc.value)
		}
	}
	for _, key := range []string{"dwpd", "pfoo_us", "watts"} {
		if f, ok := SpecFigure(key); ok {
			t.Errorf("SpecFigure(%q) = %s, want none", key, f.Name)
		}
	}
}

func TestTitledAndText(t *testing.T) {
	for _, tc := range []struct{ name, dir, want, text string }{
		{"p99", "read", "p99 read latency", "100.0 µs"},
		{"iops", "write", "write IOPS", "1,000 IOPS"},
		{"bw", "", "bandwidth", "4.1 MB/s"},
	} {
		f := Lookup(tc.name)
		if got := f.Titled(tc.dir); got != tc.want {
			t.Errorf("%s.Titled(%q) = %q, want %q", tc.name, tc.dir, got, tc.want)
		}
		if got := f.Text(f.Read(point)); got != tc.text {
			t.Errorf("%s.Text = %q, want %q", tc.name, got, tc.text)
		}
	}
	if got := Lookup("mean").Deprecation(Steady, "lat_mean"); !strings.Contains(got, `"lat_mean", the old steady_state metric name of the mean latency, is deprecated: write "mean"`) {
		t.Errorf("Deprecation = %q", got)
	}
}

// readers counts a row's readers, of which it has one.
func readers(f *Figure) int {
	n := 0
	for _, set := range []bool{f.Read != nil, f.ReadDataloader != nil, f.ReadReplay != nil, f.ReadFiles != nil} {
		if set {
			n++
		}
	}
	return n
}

// TestReadReplay reads every replay row from a fixture, in its unit and
// in an expectation's.
func TestReadReplay(t *testing.T) {
	r := &metrics.ReplayStats{Lag: metrics.LatencySummary{Max: 900_000, Mean: 30_000,
		Percentiles: []metrics.Percentile{{P: 50, Ns: 20_000}, {P: 99, Ns: 400_000}}}}
	want := map[string]float64{"lag_mean": 30_000, "lag_p50": 20_000, "lag_p99": 400_000, "lag_max": 900_000}
	for _, f := range In(Replay) {
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("figure %s: no expected value for the fixture replay", f.Name)
			continue
		}
		if got, gotExpect := f.ReadReplay(r), f.ReplayValue(Replay, r); got != w || gotExpect != w/1e3 {
			t.Errorf("figure %s reads %v (%v in an expectation), want %v (%v)", f.Name, got, gotExpect, w, w/1e3)
		}
	}
	if keys := Keys(Replay); !slices.Equal(keys, []string{"lag_mean_us", "lag_p50_us", "lag_p99_us", "lag_max_us"}) {
		t.Errorf("a replay's expectation names %v", keys)
	}
}

// TestIntervalNames pins a series' published names to the registry: the
// JSON names of metrics.Sample's figures (a record's series, a run's
// interval events) are the rows' Interval keys, each row reads the field
// of its name, and the series CSV's latency columns are the rows'
// SeriesColumn keys. A figure added to the sample without its row, or to
// the rows without the sample's field, fails here.
func TestIntervalNames(t *testing.T) {
	ownFields := []string{"t", "read_iops", "write_iops", "bytes_written"}
	sample := reflect.ValueOf(&metrics.Sample{}).Elem()
	var tags []string
	field := map[string]int{}
	for i := range sample.NumField() {
		tag, _, _ := strings.Cut(sample.Type().Field(i).Tag.Get("json"), ",")
		field[tag] = i
		if !slices.Contains(ownFields, tag) {
			tags = append(tags, tag)
		}
		switch v := sample.Field(i); v.Kind() {
		case reflect.Float64:
			v.SetFloat(float64(1000 + i))
		case reflect.Uint64:
			v.SetUint(uint64(1000 + i))
		}
	}
	if keys := Keys(Interval); !slices.Equal(keys, tags) {
		t.Errorf("the rows of the interval series name %v, metrics.Sample's JSON %v", keys, tags)
	}
	s := sample.Addr().Interface().(*metrics.Sample)
	for _, f := range In(Interval) {
		if i, ok := field[f.Key(Interval)]; !ok || f.ReadInterval(s) != float64(1000+i) {
			t.Errorf("figure %s reads %v from an interval, not its field %s", f.Name, f.ReadInterval(s), f.Key(Interval))
		}
	}
	if keys := Keys(SeriesColumn); !slices.Equal(keys, []string{"lat_mean_us", "lat_p50_us", "lat_p99_us", "lat_p9999_us"}) {
		t.Errorf("the series CSV's figure columns are %v", keys)
	}
	if got := Lookup("p99").IntervalValue(SeriesColumn, s); got != float64(s.P99Ns)/1e3 {
		t.Errorf("p99 in the series CSV reads %v, want %v µs", got, float64(s.P99Ns)/1e3)
	}
}
