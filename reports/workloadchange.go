package reports

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/workload"
)

// ParamChange is one workload parameter that differs between the base
// and the new run of a point, as the plan names it, with its value in
// each run.
type ParamChange struct {
	Param string `json:"param"`
	Base  string `json:"base"`
	New   string `json:"new"`
}

// WorkloadChange is a point both runs measured with different workloads:
// their figures measure something else, so they are compared only when
// the caller allows it.
type WorkloadChange struct {
	Point  string        `json:"point"`
	Params []ParamChange `json:"params"`
}

// workloadParam is a parameter that changes what a step measures: its
// name in the plan and its value as text ("" when the workload has none).
// A run's duration (runtime, ramp, io_size, loops) and its seed are left
// out: a shorter run of the same workload measures the same thing.
type workloadParam struct {
	name string
	text func(*workload.Workload) string
}

var measuredParams = []workloadParam{
	{"engine", func(w *workload.Workload) string { return w.Engine }},
	{"ioengine", func(w *workload.Workload) string { return w.IOEngine }},
	{"rw", func(w *workload.Workload) string { return w.RW }},
	{"read_pct", readPctText},
	{"bs", func(w *workload.Workload) string { return blockSizeText(w) }},
	{"random_pct", func(w *workload.Workload) string { return randomPctText(w) }},
	{"zones", func(w *workload.Workload) string { return zonesText(w.Zones) }},
	{"iodepth", func(w *workload.Workload) string { return strconv.Itoa(w.IODepth) }},
	{"numjobs", func(w *workload.Workload) string { return strconv.Itoa(w.NumJobs) }},
	{"direct", func(w *workload.Workload) string { return strconv.FormatBool(w.Direct) }},
	{"region", func(w *workload.Workload) string { return regionText(w) }},
	{"rate", rateText},
	{"data", dataText},
	{"verify", func(w *workload.Workload) string { return strconv.FormatBool(w.Verify) }},
}

// workloadDiff lists the parameters of the measured workload that differ
// between two workloads; nil when either is unknown.
func workloadDiff(base, next *workload.Workload) []ParamChange {
	if base == nil || next == nil {
		return nil
	}
	var out []ParamChange
	for _, p := range measuredParams {
		b, n := p.text(base), p.text(next)
		if b != n {
			out = append(out, ParamChange{Param: p.name, Base: orDash(b), New: orDash(n)})
		}
	}
	return out
}

// blockSizeText is the transfer size, or the split of sizes that
// replaces it: "4KiB", "4KiB 10%, 8KiB 90%".
func blockSizeText(w *workload.Workload) string {
	if len(w.BSSplit) == 0 {
		return format.BlockSize(w.BS)
	}
	parts := make([]string, len(w.BSSplit))
	for i, s := range w.BSSplit {
		parts[i] = format.BlockSize(s.Size) + " " + format.Plain(s.Weight) + "%"
	}
	return strings.Join(parts, ", ")
}

// randomPctText is the share of random offsets of a random pattern, as
// the plan's random_pct; "" for a sequential one.
func randomPctText(w *workload.Workload) string {
	if !strings.HasPrefix(w.RW, "rand") {
		return ""
	}
	return strconv.Itoa(100 - w.SeqPct)
}

// zonesText writes a skew as its zones: "80% in 20%, 20% in 80%".
func zonesText(zones []workload.Zone) string {
	parts := make([]string, len(zones))
	for i, z := range zones {
		parts[i] = format.Plain(z.AccessPct) + "% in " + format.Plain(z.RegionPct) + "%"
	}
	return strings.Join(parts, ", ")
}

// rateText is an open-loop cap: a rate curve's share of its maximum (the
// cap itself follows from what each run measured, so it is no part of
// the workload), or a fixed cap, with its arrivals; "" without one.
func rateText(w *workload.Workload) string {
	var caps []string
	switch {
	case w.RatePct > 0:
		caps = append(caps, format.Plain(w.RatePct)+"% of the maximum")
	default:
		if w.RateIOPS > 0 {
			caps = append(caps, format.Plain(w.RateIOPS)+" IOPS")
		}
		if w.RateBW > 0 {
			caps = append(caps, format.Bandwidth(w.RateBW))
		}
	}
	if len(caps) == 0 {
		return ""
	}
	return strings.Join(caps, ", ") + " " + cmp.Or(w.Arrival, "uniform")
}

// readPctText is the share of reads of a mix; "" for a pattern that
// does not mix.
func readPctText(w *workload.Workload) string {
	if w.RW != "rw" && w.RW != "randrw" {
		return ""
	}
	return strconv.Itoa(w.ReadPct)
}

// dataText is what writes carry: "random", "compressible 50%"; "" for a
// workload that only reads.
func dataText(w *workload.Workload) string {
	if w.RW == "read" || w.RW == "randread" {
		return ""
	}
	data := cmp.Or(w.Data, "random")
	switch {
	case w.CompressPct > 0:
		return data + " " + strconv.Itoa(w.CompressPct) + "%"
	case w.DedupePct > 0:
		return data + " " + strconv.Itoa(w.DedupePct) + "%"
	}
	return data
}
