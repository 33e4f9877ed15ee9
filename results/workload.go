package results

import "time"

// Workload is the engine input of a step as recorded: what the step asked
// the engine to do, with the values fixed at run time (a rate curve
// point's rate, a region sized to the drive). The engine fills it from the
// plan's workload once, when the step starts; reports, acceptance and
// comparisons read it from here and never from the plan, so a results
// folder explains itself after the plan has changed.
type Workload struct {
	// RW is read, write, randread, randwrite, rw or randrw; ReadPct the
	// share of reads of a mix, in percent.
	RW      string `json:"rw"`
	ReadPct int    `json:"read_pct"`
	// BS is the transfer size in bytes; BSSplit, when set, a distribution
	// of sizes that replaces it.
	BS      int64        `json:"bs"`
	BSSplit []SizeWeight `json:"bs_split,omitempty"`
	IODepth int          `json:"iodepth"`
	NumJobs int          `json:"numjobs"`
	// Runtime and Ramp bound a time-based run; Bytes, BytesPct (of the
	// region) and Loops bound a run by what it transfers.
	Runtime  time.Duration `json:"runtime_ns"`
	Ramp     time.Duration `json:"ramp_ns"`
	Bytes    int64         `json:"bytes,omitempty"`
	BytesPct float64       `json:"bytes_pct,omitempty"`
	Loops    int           `json:"loops,omitempty"`
	Direct   bool          `json:"direct"`
	// Offset, Size and SizePct are the region: Size bytes or SizePct
	// percent of the capacity from Offset; zero Size and SizePct run to
	// the end of the drive.
	Offset  int64   `json:"offset,omitempty"`
	Size    int64   `json:"size,omitempty"`
	SizePct float64 `json:"size_pct,omitempty"`
	// Engine is the driver that ran the step; IOEngine the I/O method
	// within it.
	Engine   string `json:"engine"`
	IOEngine string `json:"ioengine,omitempty"`
	Seed     uint64 `json:"seed"`
	// RateIOPS and RateBW are the open-loop caps (zero: unlimited) with
	// their Arrival process; RatePct and RateBase say where a rate curve
	// point's cap came from.
	RateIOPS float64 `json:"rate_iops,omitempty"`
	RateBW   float64 `json:"rate_bw,omitempty"`
	Arrival  string  `json:"arrival,omitempty"`
	RatePct  float64 `json:"rate_pct,omitempty"`
	RateBase string  `json:"rate_base,omitempty"`
	// SeqPct and Zones shape random offsets; Data, CompressPct and
	// DedupePct the written bytes; Verify reads every block back.
	SeqPct      int    `json:"seq_pct,omitempty"`
	Zones       []Zone `json:"zones,omitempty"`
	Data        string `json:"data,omitempty"`
	CompressPct int    `json:"compress_pct,omitempty"`
	DedupePct   int    `json:"dedupe_pct,omitempty"`
	Verify      bool   `json:"verify,omitempty"`
}

// SizeWeight is one transfer size of a distribution and its weight in
// percent.
type SizeWeight struct {
	Size   int64   `json:"size"`
	Weight float64 `json:"weight"`
}

// Zone is one zone of a skewed random distribution: AccessPct of the I/Os
// land in RegionPct of the region.
type Zone struct {
	AccessPct float64 `json:"access_pct"`
	RegionPct float64 `json:"region_pct"`
}

// RateLimited reports whether the workload ran under an open-loop cap, so
// its figures are what the cap allowed, not what the drive can do.
func (w *Workload) RateLimited() bool {
	return w.RatePct > 0 || w.RateIOPS > 0 || w.RateBW > 0
}
