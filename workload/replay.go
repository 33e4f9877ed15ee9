package workload

import (
	"slices"
	"strconv"
	"time"
)

// Replay is a captured I/O trace a profile replays instead of a generated
// workload: each I/O of the trace is issued at its time in the trace,
// scaled by Speed, open loop. The plan checks the file and the engine
// replays it; both select the trace's I/Os with the methods below, so what
// validate counts is what the run issues.
type Replay struct {
	// Path is the trace's absolute path, for the engine; File is the path
	// as the plan writes it, relative to its folder, and SHA256 the hex
	// digest of the file's content. Node IDs hash File and SHA256, so a
	// moved plan keeps its IDs and another trace gets new ones.
	Path   string `json:"-"`
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	// Format is the trace's format as detected from its content
	// ("fio-iolog-v3"), for the reports.
	Format string `json:"format,omitempty"`
	// HasWrites says that the trace's window holds writes (the plan finds
	// it when it checks the file), which the replay issues unless Writes
	// says otherwise.
	HasWrites bool `json:"has_writes,omitempty"`
	// Span is the trace time from the window's first I/O to its last, as
	// validate reads it, for the plan's estimate.
	Span time.Duration `json:"span_ns,omitempty"`
	// Speed scales the trace's time: 1 replays it as captured, 2 twice as
	// fast; 0 issues every I/O as soon as the I/Os in flight allow.
	Speed float64 `json:"speed"`
	// Device picks one disk or volume of a multi-disk trace; "" for a
	// trace of one disk.
	Device string `json:"device,omitempty"`
	// Fold maps each offset into the region (modulo its length) where
	// the trace addresses more than the region holds.
	Fold bool `json:"fold,omitempty"`
	// Writes is what happens to the trace's writes: "" replays them,
	// "skip" leaves them out, "read" reads where they would write.
	Writes string `json:"writes,omitempty"`
	// Skip and Duration are the window of the trace replayed: from Skip
	// into it, Duration long (zero: to its end).
	Skip     time.Duration `json:"skip_ns,omitempty"`
	Duration time.Duration `json:"duration_ns,omitempty"`
	// Loops is how many times the window is replayed, one after the
	// other; zero means once.
	Loops int `json:"loops,omitempty"`
}

// ReplayParams are the profile's parameters that apply to a replay: the
// cap on I/Os in flight, how the engine reaches the drive and the region
// the trace maps into. The others describe a generated workload, which
// the trace replaces.
var ReplayParams = []string{"iodepth", "direct", "offset", "size", "engine", "ioengine"}

// Applies reports whether the option is a parameter of w: a replay's are
// its replay block's and ReplayParams, a dataloader's its block's and
// DataloaderParams, any other workload's the profile's.
func (o *Option) Applies(w *Workload) bool {
	switch {
	case w.Replay != nil:
		return o.Block == "replay" || slices.Contains(ReplayParams, o.Name)
	case w.Dataloader():
		return o.Block == DataloaderBlock || slices.Contains(DataloaderParams, o.Name)
	}
	return o.Block == ""
}

// Value is the option's value in w for people, as Text writes it; "" for
// an option that does not apply to w.
func (o *Option) Value(w *Workload) string {
	if !o.Applies(w) {
		return ""
	}
	return o.Text(w)
}

// ReplayWrites are the values of a replay's writes.
var ReplayWrites = []string{"replay", "skip", "read"}

// Default iodepth of a replay: the cap on I/Os in flight when the profile
// sets none. A trace's own concurrency is what the replay follows; the cap
// only bounds the threads it may take.
const DefaultReplayIODepth = 64

// InWindow says whether an I/O at time at of the trace falls in the
// replay's window, and whether it lies past the window's end (the trace
// is read in time order, so nothing after it is replayed either).
func (r *Replay) InWindow(at time.Duration) (in, past bool) {
	switch {
	case at < r.Skip:
		return false, false
	case r.Duration > 0 && at >= r.Skip+r.Duration:
		return false, true
	}
	return true, false
}

// OnDevice says whether an I/O of device dev is of the replayed disk.
func (r *Replay) OnDevice(dev string) bool {
	return r.Device == "" || dev == r.Device
}

// ReadOnly reports whether the replay issues no write, whatever the trace
// holds.
func (r *Replay) ReadOnly() bool {
	return r.Writes == "skip" || r.Writes == "read"
}

// Estimate is how long the replay is expected to take: its span, times
// its loops, scaled by its speed; zero at speed 0, which depends on the
// drive.
func (r *Replay) Estimate() time.Duration {
	if r.Speed <= 0 {
		return 0
	}
	return time.Duration(float64(r.Span) * float64(r.LoopCount()) / r.Speed)
}

// LoopCount is how many times the window is replayed.
func (r *Replay) LoopCount() int {
	return max(r.Loops, 1)
}

// replayText reads a field of a replay, "" when w replays nothing.
func replayText(text func(r *Replay) string) func(w *Workload) string {
	return func(w *Workload) string {
		if w.Replay == nil {
			return ""
		}
		return text(w.Replay)
	}
}

// replaySet sets a field of w's replay, which it makes when w has none.
func replaySet(set func(r *Replay, v any)) func(w *Workload, v any) {
	return func(w *Workload, v any) {
		if w.Replay == nil {
			w.Replay = &Replay{}
		}
		set(w.Replay, v)
	}
}

// replayGet reads a field of w's replay; nil when w replays nothing.
func replayGet(get func(r *Replay) any) func(w *Workload) any {
	return func(w *Workload) any {
		if w.Replay == nil {
			return nil
		}
		return get(w.Replay)
	}
}

// replayOptions are the rows of the replay block's parameters (Block
// "replay" in Options).
var replayOptions = []Option{
	{
		Name: "file", Kind: Text, Block: "replay", Measured: true,
		Default: "required",
		Doc:     "The trace to replay, relative to the plan's folder; its format is detected from its content.",
		Text:    replayText(func(r *Replay) string { return r.File }),
	},
	{
		Name: "speed", Kind: Scale, Block: "replay", Measured: true, Unset: "1",
		Default: "`1`: as captured",
		Doc:     "How fast the trace's time runs: `2` replays it twice as fast, `0.5` at half speed, `0` issues every I/O as soon as the `iodepth` cap allows.",
		Set:     replaySet(func(r *Replay, v any) { r.Speed, _ = v.(float64) }),
		Get:     replayGet(func(r *Replay) any { return r.Speed }),
		Text: replayText(func(r *Replay) string {
			if r.Speed == 1 {
				return ""
			}
			return strconv.FormatFloat(r.Speed, 'f', -1, 64)
		}),
	},
	{
		Name: "device", Kind: Text, Block: "replay", Measured: true,
		Default: "the trace's one disk",
		Doc:     "The disk or volume of a multi-disk trace to replay (`volume` is the same attribute).",
		Set:     replaySet(func(r *Replay, v any) { r.Device, _ = v.(string) }),
		Get:     replayGet(func(r *Replay) any { return r.Device }),
		Text:    replayText(func(r *Replay) string { return r.Device }),
	},
	{
		Name: "fold", Kind: Bool, Block: "replay", Measured: true, Unset: "false",
		Default: "`false`",
		Doc:     "Fold the trace's offsets into the region (each offset modulo the region's length) where the trace addresses more than the region holds.",
		Set:     replaySet(func(r *Replay, v any) { r.Fold, _ = v.(bool) }),
		Get:     replayGet(func(r *Replay) any { return r.Fold }),
		Text: replayText(func(r *Replay) string {
			if !r.Fold {
				return ""
			}
			return "true"
		}),
	},
	{
		Name: "writes", Kind: Choice, Values: ReplayWrites, Invalid: "Unknown Replay Of Writes", Block: "replay", Measured: true, Unset: "replay",
		Default: "`\"replay\"`",
		Doc:     "What to do with the trace's writes: replay them, `\"skip\"` them, or `\"read\"` where they would write, so a drive not marked writable can replay a trace that writes.",
		Set:     replaySet(func(r *Replay, v any) { r.Writes, _ = v.(string) }),
		Get:     replayGet(func(r *Replay) any { return r.Writes }),
		Text: replayText(func(r *Replay) string {
			if r.Writes == "replay" {
				return ""
			}
			return r.Writes
		}),
	},
	{
		Name: "skip", Kind: Duration, Block: "replay", Measured: true,
		Default: "`0`",
		Doc:     "Start the replay this far into the trace.",
		Set:     replaySet(func(r *Replay, v any) { r.Skip, _ = v.(time.Duration) }),
		Get:     replayGet(func(r *Replay) any { return r.Skip }),
		Text:    replayText(func(r *Replay) string { return durationText(r.Skip) }),
	},
	{
		Name: "duration", Kind: Duration, Block: "replay", Measured: true,
		Default: "to the trace's end",
		Doc:     "Replay this much of the trace, from `skip` on.",
		Set:     replaySet(func(r *Replay, v any) { r.Duration, _ = v.(time.Duration) }),
		Get:     replayGet(func(r *Replay) any { return r.Duration }),
		Text:    replayText(func(r *Replay) string { return durationText(r.Duration) }),
	},
	{
		Name: "loops", Kind: Count, Min: 1, Max: 1 << 20, Block: "replay", Measured: true,
		Default: "`1`",
		Doc:     "Replay the window this many times, one pass after the other.",
		Set:     replaySet(func(r *Replay, v any) { r.Loops = int(asInt(v)) }),
		Get:     replayGet(func(r *Replay) any { return int64(r.Loops) }),
		Text: replayText(func(r *Replay) string {
			if r.LoopCount() == 1 {
				return ""
			}
			return strconv.Itoa(r.Loops)
		}),
	},
}
