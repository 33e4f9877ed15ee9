package workload

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestFromFio reads each row's fio option as fio's JSON echoes it, and
// refuses what the parameter cannot hold.
func TestFromFio(t *testing.T) {
	for _, c := range []struct {
		fio, value string
		want       Workload
		err        string
	}{
		{"rw", "readwrite", Workload{RW: "rw"}, ""},
		{"rw", "randread:8", Workload{RW: "randread"}, ""},
		{"rw", "trim", Workload{}, "not a pattern drivebench runs"},
		{"bs", "4k", Workload{BS: 4096}, ""},
		{"bs", "4k,64k", Workload{}, "not one size"},
		{"bssplit", "4k/10:64k/90", Workload{BSSplit: []SizeWeight{{4096, 10}, {65536, 90}}}, ""},
		{"bssplit", "4k/10:64k/", Workload{}, "not a list of SIZE/PERCENT"},
		{"bssplit", "4k/50,8k/100", Workload{}, "reads and writes splits of their own"},
		{"bssplit", "4k/NaN", Workload{}, "not a list of SIZE/PERCENT"},
		{"percentage_random", "80", Workload{SeqPct: 20}, ""},
		{"percentage_random", "80,20", Workload{}, "not one whole percentage"},
		{"random_distribution", "zoned:60/10:40/90", Workload{Zones: []Zone{{60, 10}, {40, 90}}}, ""},
		{"random_distribution", "random", Workload{}, ""},
		{"random_distribution", "zipf:1.2", Workload{}, "not a distribution drivebench draws"},
		{"random_distribution", "zoned:60/0", Workload{}, `zone "60/0" is not ACCESS/REGION`},
		{"runtime", "10", Workload{Runtime: 10 * time.Second}, ""},
		{"runtime", "1500ms", Workload{Runtime: 1500 * time.Millisecond}, ""},
		{"ramp_time", "2m", Workload{Ramp: 2 * time.Minute}, ""},
		{"runtime", "soon", Workload{}, "not a duration"},
		{"io_size", "1g", Workload{Bytes: 1 << 30}, ""},
		{"direct", "1", Workload{Direct: true}, ""},
		{"direct", "yes", Workload{}, "not 1 or 0"},
		{"offset", "1m", Workload{Offset: 1 << 20}, ""},
		{"offset", "10%", Workload{}, "not a number of bytes"},
		{"size", "2g", Workload{Size: 2 << 30}, ""},
		{"size", "25%", Workload{SizePct: 25}, ""},
		{"size", "0%", Workload{}, "not a share of the drive"},
		{"rate_process", "linear", Workload{Arrival: "uniform"}, ""},
		{"rate_process", "poisson", Workload{Arrival: "poisson"}, ""},
		{"zero_buffers", "1", Workload{Data: "zero"}, ""},
		{"buffer_compress_percentage", "60", Workload{Data: "compressible", CompressPct: 60}, ""},
		{"dedupe_percentage", "25", Workload{Data: "dedupe", DedupePct: 25}, ""},
		{"verify", "crc32c", Workload{Verify: true}, ""},
		{"verify", "0", Workload{}, ""},
		{"fsync", "32", Workload{Fsync: 32}, ""},
		{"filesize", "4m", Workload{FileSize: 4 << 20}, ""},
		{"openfiles", "8", Workload{OpenFiles: 8}, ""},
		{"file_service_type", "zipf:1.2", Workload{FileService: "zipf:1.2"}, ""},
		{"file_service_type", "random:4", Workload{}, "only zipf takes a value"},
		{"create_on_open", "1", Workload{CreateOnOpen: true}, ""},
		{"unlink", "0", Workload{}, ""},
		{"ioengine", "libaio", Workload{IOEngine: "libaio"}, ""},
		{"randseed", "42", Workload{Seed: 42}, ""},
		{"randseed", "-1", Workload{}, "not a whole number"},
	} {
		o := fioRow(c.fio)
		if o == nil || o.FromFio == nil {
			t.Errorf("no row reads fio's %s", c.fio)
			continue
		}
		var w Workload
		err := o.FromFio(&w, c.value)
		switch {
		case c.err == "" && err != nil, c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s=%s: error %v, want %q", c.fio, c.value, err, c.err)
		case !reflect.DeepEqual(w, c.want):
			t.Errorf("%s=%s: %+v, want %+v", c.fio, c.value, w, c.want)
		}
	}
}

// TestFromFioRows: every row that names a fio option reads it back.
func TestFromFioRows(t *testing.T) {
	for _, o := range Options {
		if o.Fio != "" && o.FromFio == nil {
			t.Errorf("%s names fio's %s but does not read it", o.Name, o.Fio)
		}
	}
}

// TestRateFromFio: a job's cap is the sum over its pattern's directions;
// one value caps each.
func TestRateFromFio(t *testing.T) {
	for _, c := range []struct {
		fio, rw, value string
		want           float64
		err            string
	}{
		{"rate_iops", "randread", "500", 500, ""},
		{"rate_iops", "randrw", "500", 1000, ""},
		{"rate_iops", "randrw", "1750,750", 2500, ""},
		{"rate_iops", "write", "1750,750", 750, ""},
		{"rate", "read", "10m", 10 << 20, ""},
		{"rate", "read", "10m,", 10 << 20, ""},
		{"rate", "rw", "10m,", 0, "leaves the other free"},
		{"rate_iops", "randread", "1,2,3", 0, "caps trims too"},
		{"rate_iops", "randread", "fast", 0, "not a rate"},
	} {
		w := Workload{RW: c.rw}
		err := fioRow(c.fio).FromFio(&w, c.value)
		got := w.RateIOPS + w.RateBW
		if c.err == "" && (err != nil || got != c.want) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || got != 0) {
			t.Errorf("%s=%s on %s: %g, %v; want %g, %q", c.fio, c.value, c.rw, got, err, c.want, c.err)
		}
	}
}

// FuzzFromFio: no value of any fio option panics a row's reader, and one
// that is refused leaves the workload as it was.
func FuzzFromFio(f *testing.F) {
	for _, s := range []string{"4k/10:64k/90", "zoned:60/10:40/90", "25%", "1500ms", "zipf:1.2", "4k,64k", "randread:8", "1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		for _, o := range Options {
			if o.FromFio == nil {
				continue
			}
			var w Workload
			if err := o.FromFio(&w, v); err != nil && !reflect.DeepEqual(w, Workload{}) {
				t.Errorf("%s=%q refused (%v) but set %+v", o.Fio, v, err, w)
			}
		}
	})
}

// fioRow is the row that writes fio option name.
func fioRow(name string) *Option {
	for i := range Options {
		if Options[i].Fio == name {
			return &Options[i]
		}
	}
	return nil
}
