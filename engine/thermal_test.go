package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/nvme"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// TestThermalSamplerReadsAtStartAndEnd: however short the step, the
// sampler has the reading before it and the one after it; a failed read
// ends sampling and is reported.
func TestThermalSamplerReadsAtStartAndEnd(t *testing.T) {
	temps := []nvme.Kelvin{323, 330, 345}
	reads := 0
	read := func() (*nvme.SmartLog, error) {
		k := temps[min(reads, len(temps)-1)]
		reads++
		return &nvme.SmartLog{Temperature: k, ThermalMgmtTemp1TransCount: uint32(reads), ThermalMgmtTemp1TotalTime: uint32(10 * reads)}, nil
	}
	start := time.Now()
	s := startThermal(time.Hour, read)
	samples, err := s.finish(start)
	if err != nil || len(samples) != 2 {
		t.Fatalf("%d samples, %v; want the first and the last reading", len(samples), err)
	}
	if samples[0].TempC != 50 || samples[1].TempC != 57 || samples[0].T > samples[1].T {
		t.Errorf("samples %+v", samples)
	}
	fails := func() (*nvme.SmartLog, error) { return nil, errors.New("no controller") }
	if _, err := startThermal(time.Hour, fails).finish(start); err == nil {
		t.Error("a failed SMART read was not reported")
	}
}

// TestThermalOnAFileDoesNothing: a step on a file is not watched, so it
// gets no readings, no summary and no log line.
func TestThermalOnAFileDoesNothing(t *testing.T) {
	s := &watchedStep{target: driver.Target{Path: t.TempDir()}, rec: &results.Record{}}
	if on := (thermalWatcher{}).start(s); on != nil {
		t.Errorf("a file is watched: %#v", on)
	}
}

func TestEndedBy(t *testing.T) {
	res := func(d time.Duration) *metrics.Result { return &metrics.Result{RuntimeNs: int64(d)} }
	both := &workload.Workload{Runtime: time.Hour, BytesPct: 400}
	tests := []struct {
		w    *workload.Workload
		res  *metrics.Result
		want string
	}{
		{both, res(20 * time.Minute), "io_size"},
		{both, res(time.Hour), "runtime"},
		{&workload.Workload{Runtime: time.Hour}, res(time.Hour), ""},
		{&workload.Workload{Bytes: 1 << 30}, res(time.Minute), ""},
		{both, nil, ""},
	}
	for i, tt := range tests {
		if got := endedBy(tt.w, tt.res); got != tt.want {
			t.Errorf("%d: %q, want %q", i, got, tt.want)
		}
	}
}

// TestSummaryHookSeesSeries: a summary hook's steps carry the time series
// the report charts.
func TestSummaryHookSeesSeries(t *testing.T) {
	rec := &results.Record{StepID: "s", Kind: "profile", Status: "ok", EndedBy: "io_size", Result: &metrics.Result{
		Series:  []metrics.Sample{{T: 1, WriteIOPS: 500000, BytesWritten: 2 << 30}, {T: 2, WriteIOPS: 160000, BytesWritten: 3 << 30}},
		Thermal: []metrics.ThermalSample{{T: 0, TempC: 50}},
	}}
	m := stepModel(rec)
	series, _ := m["series"].([]any)
	if len(series) != 2 || series[1].(map[string]any)["write_iops"] != 160000.0 || series[1].(map[string]any)["bytes_written"] != uint64(3<<30) {
		t.Errorf("series %v", m["series"])
	}
	if th, _ := m["thermal"].([]any); len(th) != 1 || m["ended_by"] != "io_size" {
		t.Errorf("thermal %v, ended_by %v", m["thermal"], m["ended_by"])
	}
}

// TestRoundPointName: a check on a steady-state profile tells its rounds
// apart by name.
func TestRoundPointName(t *testing.T) {
	ss := &plan.SteadyState{}
	tests := []struct {
		n    *plan.Node
		name string
		want string
	}{
		{&plan.Node{SteadyState: ss, Round: 3}, "", "round 3"},
		{&plan.Node{SteadyState: ss, Round: 2}, "bs=4096", "round 2,bs=4096"},
		{&plan.Node{Round: 2}, "iodepth=4", "iodepth=4"},
		{nil, "iodepth=4", "iodepth=4"},
	}
	for _, tt := range tests {
		if got := roundPointName(tt.n, tt.name); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
}
