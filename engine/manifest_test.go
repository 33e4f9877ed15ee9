package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// TestWorkloadParams checks the methodology's list of a profile's
// parameters: in the order of workload.Options, in the plan's units,
// without what is swept or not set.
func TestWorkloadParams(t *testing.T) {
	mix := workload.Workload{
		RW: "randrw", ReadPct: 70, BS: 4096, BSSplit: []workload.SizeWeight{{Size: 1536, Weight: 40}, {Size: 8192, Weight: 60}},
		SeqPct: 20, Zones: []workload.Zone{{AccessPct: 80, RegionPct: 20}, {AccessPct: 20, RegionPct: 80}},
		IODepth: 32, NumJobs: 4, Runtime: time.Minute, Direct: true, SizePct: 25,
		RateIOPS: 5000, Data: "compressible", CompressPct: 50, Engine: "fio", IOEngine: "libaio",
	}
	tests := []struct {
		name  string
		w     workload.Workload
		swept []plan.SweepAxis
		want  []results.KV
	}{
		{"mix", mix, nil, []results.KV{
			{Key: "rw", Value: "randrw"}, {Key: "read_pct", Value: "70"},
			{Key: "bs_split", Value: "1536B 40%, 8KiB 60%"}, {Key: "random_pct", Value: "80"},
			{Key: "zones", Value: "80% of I/Os in 20% of the region, 20% of I/Os in 80% of the region"},
			{Key: "iodepth", Value: "32"}, {Key: "numjobs", Value: "4"}, {Key: "runtime", Value: "1m"}, {Key: "ramp", Value: "0s"},
			{Key: "direct", Value: "true"}, {Key: "size", Value: "25% of the drive"},
			{Key: "rate_iops", Value: "5000"}, {Key: "arrival", Value: "uniform"},
			{Key: "data", Value: "compressible"}, {Key: "compress_pct", Value: "50"},
			{Key: "engine", Value: "fio"}, {Key: "ioengine", Value: "libaio"},
		}},
		{"swept bs replaces the split", mix, []plan.SweepAxis{{Param: "bs"}, {Param: "numjobs"}, {Param: "read_pct"}}, []results.KV{
			{Key: "rw", Value: "randrw"}, {Key: "random_pct", Value: "80"},
			{Key: "zones", Value: "80% of I/Os in 20% of the region, 20% of I/Os in 80% of the region"},
			{Key: "iodepth", Value: "32"}, {Key: "runtime", Value: "1m"}, {Key: "ramp", Value: "0s"},
			{Key: "direct", Value: "true"}, {Key: "size", Value: "25% of the drive"},
			{Key: "rate_iops", Value: "5000"}, {Key: "arrival", Value: "uniform"},
			{Key: "data", Value: "compressible"}, {Key: "compress_pct", Value: "50"},
			{Key: "engine", Value: "fio"}, {Key: "ioengine", Value: "libaio"},
		}},
		{"sequential read by bytes", workload.Workload{RW: "read", ReadPct: 100, BS: 128 << 10, IODepth: 1, NumJobs: 1, BytesPct: 400}, nil, []results.KV{
			{Key: "rw", Value: "read"}, {Key: "bs", Value: "128KiB"}, {Key: "iodepth", Value: "1"}, {Key: "numjobs", Value: "1"},
			{Key: "io_size", Value: "400% of the region"}, {Key: "direct", Value: "false"}, {Key: "engine", Value: "native"},
		}},
	}
	for _, tt := range tests {
		got := workloadParams(&tt.w, tt.swept)
		if len(got) != len(tt.want) {
			t.Errorf("%s: got %d params %v, want %d %v", tt.name, len(got), got, len(tt.want), tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: param %d = %v, want %v", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

// TestManifestKeepsAggregateRule: an aggregate step's entry in the
// manifest carries its rule, which the reports say from; its name says
// the same words.
func TestManifestKeepsAggregateRule(t *testing.T) {
	p, g := load(t, "../plan/testdata/valid/language.hcl", nil)
	m := buildManifest(p, g, nil, Options{})
	n := 0
	for _, s := range m.Steps {
		if s.Kind != string(plan.KindAggregate) {
			continue
		}
		n++
		if s.Aggregate == nil || *s.Aggregate != (workload.Aggregate{Use: "last", Keep: 2}) || len(s.DependsOn) != 3 {
			t.Errorf("%s: aggregate %+v of %d rounds, want the last 2 of 3", s.Name, s.Aggregate, len(s.DependsOn))
		} else if want := s.Aggregate.Describe(len(s.DependsOn)); !strings.HasSuffix(s.Name, " / "+want) {
			t.Errorf("%s: the name does not end in %q", s.Name, want)
		}
	}
	if n == 0 {
		t.Fatal("the plan has no aggregate step")
	}
}
