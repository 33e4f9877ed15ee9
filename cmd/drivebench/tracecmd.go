package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/trace"
	"github.com/drivebench/drivebench/workload"
)

// traceCommands are the subcommands of drivebench trace.
var traceCommands = []command{
	{name: "stat", summary: "count and characterize a trace's I/Os: sizes, shares, inter-arrival, queue depth, hot regions", run: cmdTraceStat},
	{name: "mix", summary: "write the mix block that approximates a trace, for a plan", run: cmdTraceMix},
	{name: "capture", summary: "record a block device's I/Os from the kernel's block events as fio iolog v3 (root)", run: cmdTraceCapture},
}

// cmdTrace dispatches drivebench trace SUBCOMMAND.
func cmdTrace(ctx context.Context, args []string, io stdio) int {
	return dispatchSub(ctx, "trace", traceCommands, args, io,
		"Formats, detected from the content: fio iolog v2 and v3, blkparse -d binary, MSR Cambridge,\nAlibaba and Tencent CBS CSV. See docs/trace.md (drivebench help trace).")
}

// characterize opens and characterizes the trace at path, of one device
// when device is not "", saying what went wrong on io.err.
func characterize(cmd, path, device string, io stdio) (*trace.Stats, bool) {
	f, err := trace.Open(path)
	if err != nil {
		fmt.Fprintf(io.err, "drivebench %s: %v\n", cmd, err)
		return nil, false
	}
	defer f.Close()
	s, err := trace.Characterize(f, device)
	if err != nil {
		fmt.Fprintf(io.err, "drivebench %s: %v\n", cmd, err)
		return nil, false
	}
	if device != "" && s.IOs == 0 {
		fmt.Fprintf(io.err, "drivebench %s: %s has no I/O of device %q; its devices are %s\n", cmd, path, device, deviceList(s))
		return nil, false
	}
	return s, true
}

func deviceList(s *trace.Stats) string {
	names := strings.Join(quoteAll(s.DeviceNames), ", ")
	if s.Devices > len(s.DeviceNames) {
		names += fmt.Sprintf(" and %d more", s.Devices-len(s.DeviceNames))
	}
	return names
}

func quoteAll(names []string) []string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return q
}

func cmdTraceStat(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("trace stat", "FILE",
		"Count and characterize the I/Os of a block trace: reads, writes, flushes, discards, bytes, duration, transfer sizes,\n"+
			"read and sequential shares, inter-arrival times, queue depth (where the trace records completions) and hot regions.\n"+
			"The trace is read as a stream: a trace of any size is read in bounded memory.", io)
	asJSON := fs.Bool("json", false, "print the figures as one JSON object (format_version "+trace.StatsVersion+")")
	device := fs.String("device", "", "count only the I/Os of this device or volume of a multi-device trace (MSR host_disk, Alibaba device_id, Tencent VolumeID, blkparse major:minor, an iolog's file)")
	args, code, ok := parsePositionals(fs, args, "a trace file")
	if !ok {
		return code
	}
	s, ok := characterize("trace stat", args[0], *device, io)
	if !ok {
		return exitUsage
	}
	return printValue(io, "trace stat", *asJSON, s, func(t *table) { statRows(t, s) })
}

// statRows shows a trace's figures.
func statRows(t *table, s *trace.Stats) {
	fmt.Fprintf(t.tw, "%s: %s, %s\n\n", s.File, s.Format, devicesText(s))
	t.section("I/Os")
	t.row("Total", "%s", format.Count(float64(s.IOs)))
	t.row("Reads", "%s (%s)", format.Count(float64(s.Reads)), format.Bytes(uint64(s.ReadBytes)))
	t.row("Writes", "%s (%s)", format.Count(float64(s.Writes)), format.Bytes(uint64(s.WriteBytes)))
	t.row("Flushes", "%s", format.Count(float64(s.Flushes)))
	t.row("Discards", "%s (%s)", format.Count(float64(s.Discards)), format.Bytes(uint64(s.DiscardBytes)))
	t.row("Bytes", "%s read and written", format.Bytes(uint64(s.Bytes)))
	if s.Timed {
		t.row("Duration", "%s", durationOf(s.DurationNS))
	} else {
		t.row("Duration", "unknown: %s records no times", s.Format)
	}
	t.row("Read share", "%s %% of reads and writes", format.Grouped(s.ReadPct, 1))
	t.row("Sequential", "%s %% of reads and writes start where the one before ended", format.Grouped(s.SequentialPct, 1))
	t.end()
	sizeRows(t, s)
	t.section("Inter-arrival time")
	distributionRows(t, s.InterArrival, func(v float64) string { return format.Latency(v) }, "unknown: the trace records no times")
	t.section("Queue depth (I/Os in flight as each is issued)")
	distributionRows(t, s.QueueDepth, func(v float64) string { return format.Grouped(v, 0) }, "unknown: "+s.QueueDepthNote)
	regionRows(t, s)
}

func devicesText(s *trace.Stats) string {
	switch {
	case s.Device != "":
		return fmt.Sprintf("device %q of %d", s.Device, s.Devices)
	case s.Devices == 1:
		return fmt.Sprintf("one device (%q)", s.DeviceNames[0])
	}
	return fmt.Sprintf("%d devices: %s", s.Devices, deviceList(s))
}

func sizeRows(t *table, s *trace.Stats) {
	title := "Transfer sizes (reads and writes)"
	if s.SizesRounded {
		title += ", rounded up to powers of two: the trace has over 1,024 sizes"
	}
	t.section(title)
	if len(s.Sizes) == 0 {
		t.note("none")
	}
	for _, sc := range s.Sizes {
		t.row(workload.FormatSize(sc.Size), "%s\t%s %%", format.Count(float64(sc.Count)), format.Grouped(sc.Pct, 1))
	}
	t.end()
}

func distributionRows(t *table, d *trace.Distribution, f func(float64) string, missing string) {
	if d == nil {
		t.note(missing)
		t.end()
		return
	}
	t.row("Mean", "%s", f(d.Mean))
	t.row("p50", "%s", f(float64(d.P50)))
	t.row("p90", "%s", f(float64(d.P90)))
	t.row("p99", "%s", f(float64(d.P99)))
	t.row("Max", "%s", f(float64(d.Max)))
	t.end()
}

func regionRows(t *table, s *trace.Stats) {
	r := s.Regions
	if r == nil {
		if s.RegionsNote != "" {
			t.section("Hot regions")
			t.note(s.RegionsNote)
			t.end()
		}
		return
	}
	t.section(fmt.Sprintf("Hot regions (of %s from offset %s, in 1 %% slices of %s)", workload.FormatSize(r.End-r.Start), workload.FormatSize(r.Start), workload.FormatSize(r.SliceSize)))
	t.row("Busiest 10 % of the span", "%s %% of the I/Os", format.Grouped(r.Hottest10Pct, 1))
	t.row("Busiest 20 % of the span", "%s %% of the I/Os", format.Grouped(r.Hottest20Pct, 1))
	for _, h := range r.Hottest {
		t.row("At "+workload.FormatSize(h.Offset), "%s %% of the I/Os", format.Grouped(h.AccessPct, 1))
	}
	t.end()
}

func cmdTraceMix(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("trace mix", "FILE",
		"Write the mix block that approximates a trace (read share, transfer sizes, random share, hot zones), labelled with\n"+
			"its source in a comment, for a plan or an included file: drivebench trace mix boot.iolog >> mixes.hcl.\n"+
			"A mix is a synthetic shape, not a replay: it keeps the trace's proportions and loses its order and timing.", io)
	name := fs.String("name", "", "the mix's name (default: trace- and the file's name)")
	device := fs.String("device", "", "approximate only the I/Os of this device or volume of a multi-device trace")
	args, code, ok := parsePositionals(fs, args, "a trace file")
	if !ok {
		return code
	}
	s, ok := characterize("trace mix", args[0], *device, io)
	if !ok {
		return exitUsage
	}
	m, err := trace.MixOf(s)
	if errors.Is(err, trace.ErrNoTransfers) {
		fmt.Fprintf(io.err, "drivebench trace mix: %s: %v (flushes: %d, discards: %d)\n", args[0], err, s.Flushes, s.Discards)
		return exitUsage
	}
	if *name == "" {
		*name = mixName(args[0])
	}
	block := plan.MixHCL(&plan.Mix{Name: *name, ReadPct: m.ReadPct, RandomPct: m.RandomPct, BSSplit: m.BSSplit, Zones: m.Zones}, mixComment(s, m))
	if _, err := io.out.Write(block); err != nil {
		fmt.Fprintln(io.err, "drivebench trace mix:", err)
		return exitUsage
	}
	return exitOK
}

// mixName makes a mix name of a trace's file name: trace-usr_0.
func mixName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return "trace-" + strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '-'
	}, base)
}

// mixComment says where a mix comes from and what it leaves out.
func mixComment(s *trace.Stats, m *trace.Mix) []string {
	src := s.File
	if abs, err := filepath.Abs(s.File); err == nil {
		src = abs
	}
	if s.Device != "" {
		src += fmt.Sprintf(", device %q", s.Device)
	}
	lines := []string{
		"Approximates the trace " + src,
		fmt.Sprintf("(%s, %s I/Os, %s read and written", s.Format, format.Count(float64(s.IOs)), format.Bytes(uint64(s.Bytes))) + durationText(s) + "),",
		"made by drivebench trace mix: read share, transfer sizes (to 512-byte sectors), random share and skew.",
	}
	if s.Device == "" && s.Devices > 1 {
		lines = append(lines, fmt.Sprintf("It mixes the trace's %d devices, and has no zones: one device's mix is trace mix -device %s.", s.Devices, s.DeviceNames[0]))
	}
	if len(m.Zones) > 0 {
		lines = append(lines, fmt.Sprintf("The zones are over the trace's span, %s from offset %s: give the profile that size.",
			workload.FormatSize(m.SpanEnd-m.SpanStart), workload.FormatSize(m.SpanStart)))
	}
	if s.Flushes+s.Discards > 0 {
		lines = append(lines, fmt.Sprintf("A mix has no flushes or discards: the trace's are left out (flushes: %d, discards: %d).", s.Flushes, s.Discards))
	}
	return lines
}

func durationText(s *trace.Stats) string {
	if !s.Timed {
		return ""
	}
	return " over " + durationOf(s.DurationNS)
}

// durationOf writes a trace's duration: a short one in ms or µs, as a
// latency, a longer one as format.Duration does.
func durationOf(ns int64) string {
	if ns < 10e9 {
		return format.Latency(float64(ns))
	}
	return format.Duration(ns)
}

// note writes a line of text in a table's section.
func (t *table) note(text string) { fmt.Fprintf(t.tw, "  %s\n", text) }

func cmdTraceCapture(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("trace capture", "-device DEV -o FILE [-duration D]",
		"Record the requests the block layer issues to a block device (tracefs's block_rq_issue and block_rq_complete events,\n"+
			"filtered to the device) and write them as fio iolog v3, which fio's read_iolog and a replay profile replay.\n"+
			"Needs root; mounts tracefs at "+trace.Tracefs+" if it is not, and works in a tracefs instance of its own, removed\n"+
			"at the end, so the system's tracing is left as it was. Without -duration it records until Ctrl-C.\n"+
			"blktrace is not used: this kernel refuses its relay files.", io)
	device := fs.String("device", "", "the block device to record, such as /dev/nvme0n1 (required)")
	out := fs.String("o", "", "the iolog file to write (required)")
	duration := fs.Duration("duration", 0, "how long to record, such as 30s; 0 records until interrupted")
	args, code, done := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(args) > 0 {
		fmt.Fprintf(io.err, "drivebench trace capture: unexpected argument %q: name the device with -device and the file with -o\n", args[0])
		return exitUsage
	}
	if *device == "" || *out == "" {
		fmt.Fprintln(io.err, "drivebench trace capture: -device and -o are required: drivebench trace capture -device /dev/nvme0n1 -duration 30s -o boot.iolog")
		return exitUsage
	}
	return runCapture(ctx, *device, *out, *duration, io)
}

// runCapture records device into out. The iolog goes to a temporary
// file beside out, renamed over it once the capture has ended, so a
// capture that cannot start (not root, not a block device) leaves an
// earlier file of that name as it was.
func runCapture(ctx context.Context, device, out string, duration time.Duration, io stdio) int {
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".capture-*")
	if err != nil {
		fmt.Fprintln(io.err, "drivebench trace capture:", err)
		return exitUsage
	}
	defer os.Remove(f.Name()) // nothing once renamed
	c, err := trace.StartCapture(device, f)
	if err != nil {
		f.Close()
		fmt.Fprintln(io.err, "drivebench trace capture:", err)
		return exitUsage
	}
	until := "until interrupted (Ctrl-C)"
	wait := ctx
	if duration > 0 {
		until = "for " + duration.String()
		var cancel context.CancelFunc
		wait, cancel = context.WithTimeout(ctx, duration)
		defer cancel()
	}
	fmt.Fprintf(io.err, "drivebench trace capture: recording %s %s\n", device, until)
	<-wait.Done()
	res, err := c.Stop()
	for _, step := range []func() error{f.Close, func() error { return os.Chmod(f.Name(), 0o644) }, func() error { return os.Rename(f.Name(), out) }} {
		if err == nil {
			err = step()
		}
	}
	if err != nil {
		fmt.Fprintln(io.err, "drivebench trace capture:", err)
		return exitStepFailed
	}
	captureSummary(io, res, out)
	if duration > 0 && ctx.Err() != nil {
		return exitInterrupted
	}
	return exitOK
}

// captureSummary says what a capture recorded, and warns when the kernel
// dropped events.
func captureSummary(io stdio, r *trace.CaptureResult, out string) {
	fmt.Fprintf(io.out, "Captured %s I/Os of %s over %s: %s reads, %s writes, %s flushes, %s discards, %s read and written.\n",
		format.Count(float64(r.IOs)), r.Device, durationOf(r.Duration.Nanoseconds()), format.Count(float64(r.Reads)), format.Count(float64(r.Writes)),
		format.Count(float64(r.Flushes)), format.Count(float64(r.Discards)), format.Bytes(uint64(r.Bytes)))
	if r.Latency != nil {
		fmt.Fprintf(io.out, "Latency (issue to completion): p50 %s, p99 %s, max %s.\n", format.Latency(float64(r.Latency.P50)), format.Latency(float64(r.Latency.P99)), format.Latency(float64(r.Latency.Max)))
	}
	fmt.Fprintf(io.out, "Wrote %s (fio iolog v3: fio --read_iolog=%s --replay_redirect=DEV replays it).\n", out, out)
	if r.Lost > 0 {
		fmt.Fprintf(io.err, "drivebench trace capture: warning: the kernel dropped %s events, its buffer full: the capture misses I/Os; record a shorter time or a quieter device\n", format.Count(float64(r.Lost)))
	}
}
