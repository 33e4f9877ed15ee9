package plan

import (
	"slices"
	"strings"
	"testing"
)

// judgingProfile returns a profile of testdata/valid/judging.hcl.
func judgingProfile(t *testing.T, name string) (*Plan, *Profile) {
	t.Helper()
	p := mustLoad(t, "testdata/valid/judging.hcl", nil)
	for _, pr := range p.Profiles {
		if pr.Name == name {
			return p, pr
		}
	}
	t.Fatalf("no profile %s", name)
	return nil, nil
}

func TestExpectationEval(t *testing.T) {
	p, read := judgingProfile(t, "read")
	spec := p.Drives[0].Spec
	dir := func(iops, p99 float64) *DirMeasure {
		m := map[string]float64{}
		for _, k := range expectFigures {
			m[k] = 1
		}
		m["iops"], m["p99_us"] = iops, p99
		return &DirMeasure{Figures: m}
	}
	tests := []struct {
		name   string
		m      Measured
		holds  []bool
		values []string
		err    string
	}{
		{"both hold", Measured{Read: dir(95000, 800)}, []bool{true, true},
			[]string{"result.read.iops = 95000", "spec.rand_read_4k.iops = 100000"}, ""},
		{"both fail", Measured{Read: dir(80000.7, 1200.25)}, []bool{false, false},
			[]string{"result.read.iops = 80001", "spec.rand_read_4k.iops = 100000"}, ""},
		{"no reads", Measured{Write: dir(1, 1)}, nil, nil,
			"result.read is not set: the step did no reads"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, e := range read.Expect {
				j, err := e.Eval(tt.m, spec)
				if tt.err != "" {
					if err == nil || err.Error() != tt.err {
						t.Errorf("%s: error %v, want %q", e.Text, err, tt.err)
					}
					continue
				}
				if err != nil || j.Holds != tt.holds[i] {
					t.Errorf("%s: %+v, %v", e.Text, j, err)
				}
				if i == 0 && !slices.Equal(j.Values, tt.values) {
					t.Errorf("values %q, want %q", j.Values, tt.values)
				}
				if i == 1 && !slices.Contains(j.Values, "var.limit_us = 1000") {
					t.Errorf("%s: values %q, want the limit's value among them", e.Text, j.Values)
				}
			}
		})
	}
	if e := read.Expect[1]; e.Text != "result.read.p99_us < var.limit_us" || e.Where != "judging.hcl:29:5" {
		t.Errorf("expectation %q at %s", e.Text, e.Where)
	}
}

func TestExpectationOnMetrics(t *testing.T) {
	p, bench := judgingProfile(t, "bench.one")
	e := bench.Expect[0]
	if _, err := e.Eval(Measured{Metrics: map[string]float64{"qps": 1}}, p.Drives[1].Spec); err == nil ||
		err.Error() != `result.metrics has no "tps"; the step's metrics are qps` {
		t.Errorf("a missing metric: %v", err)
	}
	j, err := e.Eval(Measured{Metrics: map[string]float64{"tps": 41.5}}, nil)
	if err != nil || !j.Holds || !slices.Equal(j.Values, []string{"result.metrics.tps = 41.5"}) {
		t.Errorf("tps 41.5: %+v, %v", j, err)
	}
}

func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{100000: "100000", 812345.67: "812346", 41.5: "41.5", 0.00012345: "0.0001234", 3: "3"} {
		if got := FormatNumber(v); got != want {
			t.Errorf("FormatNumber(%g) = %q, want %q", v, got, want)
		}
	}
}

func TestAdaptivePoint(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/judging.hcl", nil))
	var search *Node
	for _, n := range g.Nodes {
		if n.Kind == KindAdaptive {
			search = n
		}
	}
	a, err := search.AdaptivePoint(map[string]any{"iodepth": int64(8), "bs": "16KiB", "numjobs": 2.0})
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "ssd / search / bs=16KiB, iodepth=8, numjobs=2" || a.Parent != search.ID || a.Kind != KindProfile ||
		a.Workload.IODepth != 8 || a.Workload.BS != 16384 || a.Workload.NumJobs != 2 || len(a.Expect) != 1 {
		t.Errorf("point %+v, workload %+v", a, a.Workload)
	}
	b, _ := search.AdaptivePoint(map[string]any{"numjobs": int64(2), "bs": int64(16384), "iodepth": 8.0})
	c, _ := search.AdaptivePoint(map[string]any{"iodepth": int64(16)})
	r, err := search.AdaptivePoint(map[string]any{"rate_iops": int64(20000)})
	if err != nil || r.Workload.RateIOPS != 20000 || r.Name != "ssd / search / rate_iops=20000" {
		t.Errorf("a rate: %+v, %v", r, err)
	}
	if a.ID != b.ID || a.ID == c.ID || a.ID == search.ID {
		t.Errorf("IDs %s %s %s: the same point must get the same ID, another point another", a.ID, b.ID, c.ID)
	}
	for params, want := range map[string]map[string]any{
		"iodepth = 0: must be a whole number from 1 to 65536": {"iodepth": int64(0)},
		"iodepth = 2.5: must be a whole number":               {"iodepth": 2.5},
		`iodpth is not a parameter a point can set`:           {"iodpth": int64(1)},
		`rw = sideways: use one of`:                           {"rw": "sideways"},
		`bs = "huge" is not a size`:                           {"bs": "huge"},
		`read_pct = "half": must be a whole number`:           {"read_pct": "half"},
		`rate_iops = -5: must be more than 0`:                 {"rate_iops": -5.0},
	} {
		if _, err := search.AdaptivePoint(want); err == nil || !strings.HasPrefix(err.Error(), params) {
			t.Errorf("%v: %v, want %q", want, err, params)
		}
	}
}
