package results

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
)

// A step's interval series, one sample a second of its measured phase,
// lives in its record; these files give it to tools that read neither
// JSON nor drivebench: series/<step>.csv, for spreadsheets and plotting
// libraries, and on request fio's own logs (write_bw_log, write_iops_log,
// write_lat_log with log_avg_msec=1000), for fio-plot, fio2gnuplot and
// the rest of fio's tools. They are written with the record, and `report
// DIR` writes them again from the records alone.
const (
	SeriesDir  = "series"
	FioLogsDir = "fio-logs"
)

// SeriesColumns are the columns of series/<step>.csv, in order, each named
// with its unit. Bandwidth is in decimal megabytes (10^6 bytes) a second;
// the latencies, the figure registry's rows of the series CSV
// (figure.SeriesColumn: lat_mean_us, lat_p99_us ...), are of both
// directions together, as the series measures them.
var SeriesColumns = slices.Concat(
	[]string{"t_start_s", "t_end_s", "read_iops", "write_iops", "read_mb_s", "write_mb_s"},
	figure.Keys(figure.SeriesColumn),
	[]string{"written_bytes"},
)

// SeriesCSV is the CSV of series: a header of SeriesColumns, then a line
// per interval. A latency the interval did not measure is an empty cell.
func SeriesCSV(series []metrics.Sample) []byte {
	var b strings.Builder
	b.WriteString(strings.Join(SeriesColumns, ",") + "\n")
	for i, s := range series {
		read, write := splitBandwidth(s)
		cells := []string{
			fixed(s.T-metrics.Span(series, i), 3), fixed(s.T, 3),
			fixed(s.ReadIOPS, 1), fixed(s.WriteIOPS, 1),
			fixed(read/1e6, 3), fixed(write/1e6, 3),
		}
		for _, f := range figure.In(figure.SeriesColumn) {
			cells = append(cells, micros(f.IntervalValue(figure.SeriesColumn, &s)))
		}
		cells = append(cells, strconv.FormatUint(s.BytesWritten, 10))
		b.WriteString(strings.Join(cells, ",") + "\n")
	}
	return []byte(b.String())
}

// TraceSeriesExt ends the name of a trace replay's series over trace
// time, series/<step>.trace-time.csv, beside its series over run time;
// a step's slug has no dot, so no step's series has this name.
const TraceSeriesExt = ".trace-time.csv"

// TraceSeriesColumns are the columns of a replay's series over trace
// time (metrics.TraceBin), in order, each named with its unit: the bin
// in seconds of the trace's own clock, the loop it begins in (from 1),
// the I/Os due in it and those issued, the rates in I/Os and decimal
// megabytes a second of trace time, and the latency and lag columns as
// the figure registry names them in a series CSV and a replay's
// expectation (lat_mean_us, lat_p99_us, lag_p99_us).
var TraceSeriesColumns = []string{"trace_t_start_s", "trace_t_end_s", "loop", "due", "issued", "read_iops", "write_iops", "mb_s",
	figure.Lookup("mean").Key(figure.SeriesColumn), figure.Lookup("p99").Key(figure.SeriesColumn), figure.Lookup("lag_p99").Key(figure.Replay)}

// TraceSeriesCSV is the CSV of a replay's series over trace time: a
// header of TraceSeriesColumns, then a line per bin. A latency or lag the
// bin did not measure is an empty cell.
func TraceSeriesCSV(rp *metrics.ReplayStats) []byte {
	var b strings.Builder
	b.WriteString(strings.Join(TraceSeriesColumns, ",") + "\n")
	width := float64(rp.TraceBinNs) / 1e9
	for _, s := range rp.TraceSeries {
		cells := []string{
			fixed(s.T, 6), fixed(s.T+width, 6), strconv.Itoa(s.Loop),
			strconv.FormatInt(s.Due, 10), strconv.FormatInt(s.Reads+s.Writes, 10),
			fixed(float64(s.Reads)/width, 1), fixed(float64(s.Writes)/width, 1), fixed(float64(s.Bytes)/width/1e6, 3),
			micros(s.MeanLatNs / 1e3), micros(float64(s.P99Ns) / 1e3), micros(float64(s.LagP99Ns) / 1e3),
		}
		b.WriteString(strings.Join(cells, ",") + "\n")
	}
	return []byte(b.String())
}

// splitBandwidth shares an interval's bandwidth of both directions between
// them by their I/O counts: a step draws the transfer sizes of its reads
// and of its writes from one distribution (bs, bs_split).
func splitBandwidth(s metrics.Sample) (read, write float64) {
	ios := s.ReadIOPS + s.WriteIOPS
	if ios == 0 {
		return 0, 0
	}
	return s.BW * s.ReadIOPS / ios, s.BW * s.WriteIOPS / ios
}

func fixed(v float64, decimals int) string {
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// micros writes a latency in microseconds; empty when 0, which the series
// means as not measured.
func micros(us float64) string {
	if us == 0 {
		return ""
	}
	return fixed(us, 3)
}

// FioLog is one of fio's logs of a step: its kind ("bw", "iops", "lat" or
// "clat") and its lines.
type FioLog struct {
	Kind string
	Data []byte
}

// FioLogs are fio's logs of a step's series, as fio 3 writes them with
// log_avg_msec=1000: a line per interval and direction, "time, value,
// ddir, bs, offset", time in milliseconds from the start of the measured
// phase, ddir 0 for reads and 1 for writes, bs and offset 0 (an average
// of many I/Os). bw is in KiB/s, iops in I/Os a second, latency the mean
// in nanoseconds. The series holds one latency for both directions, so a
// step that both read and wrote has no latency log; the latency log is
// "clat" when the result's latency is fio's completion latency. One log
// stands for all the step's jobs together, fio's job 1.
func FioLogs(res *metrics.Result) []FioLog {
	read, write := directions(res.Series)
	var bw, iops, lat strings.Builder
	for _, s := range res.Series {
		ms := int64(math.Round(s.T * 1000))
		r, w := splitBandwidth(s)
		line := func(b *strings.Builder, v float64, ddir int) {
			fmt.Fprintf(b, "%d, %d, %d, 0, 0\n", ms, int64(math.Round(v)), ddir)
		}
		for _, d := range []struct {
			on       bool
			ddir     int
			bw, iops float64
		}{{read, 0, r, s.ReadIOPS}, {write, 1, w, s.WriteIOPS}} {
			if !d.on {
				continue
			}
			line(&bw, d.bw/1024, d.ddir)
			line(&iops, d.iops, d.ddir)
			if !(read && write) && s.MeanLatNs > 0 {
				line(&lat, s.MeanLatNs, d.ddir)
			}
		}
	}
	logs := []FioLog{{"bw", []byte(bw.String())}, {"iops", []byte(iops.String())}}
	if lat.Len() > 0 {
		kind := "lat"
		if res.Latency == metrics.LatencyFioClat {
			kind = "clat"
		}
		logs = append(logs, FioLog{kind, []byte(lat.String())})
	}
	return logs
}

// directions reports which directions the series did I/O in.
func directions(series []metrics.Sample) (read, write bool) {
	for _, s := range series {
		read = read || s.ReadIOPS > 0
		write = write || s.WriteIOPS > 0
	}
	return read, write
}

// WriteSeries writes the interval series of r's step, series/<step>.csv,
// a trace replay's series over trace time beside it
// (series/<step>.trace-time.csv), and with fioLogs fio's logs of it too
// (FioLogPath); nothing for a step without a series.
func (f *Folder) WriteSeries(r *Record, fioLogs bool) error {
	if r.Result == nil {
		return nil
	}
	base, unique := f.seriesName(r)
	if rp := r.Result.Replay; rp != nil && len(rp.TraceSeries) > 0 && rp.TraceBinNs > 0 {
		if err := f.writeInto(filepath.Join(SeriesDir, base+TraceSeriesExt), TraceSeriesCSV(rp)); err != nil {
			return err
		}
	}
	if len(r.Result.Series) == 0 {
		return nil
	}
	if err := f.writeInto(filepath.Join(SeriesDir, base+".csv"), SeriesCSV(r.Result.Series)); err != nil {
		return err
	}
	if !fioLogs || r.Workload == nil {
		return nil
	}
	for _, log := range FioLogs(r.Result) {
		if err := f.writeInto(fioLogPath(r, unique, log.Kind), log.Data); err != nil {
			return err
		}
	}
	return nil
}

// RewriteSeries writes the series files of every record of the folder
// again, from the records alone, and fio's logs with fioLogs. A record
// that cannot be read is left out, as the reports leave it out.
func (f *Folder) RewriteSeries(fioLogs bool) error {
	recs, _, err := f.ReadableRecords()
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := f.WriteSeries(r, fioLogs); err != nil {
			return err
		}
	}
	return nil
}

// writeInto writes data to the file rel of the folder, making its folder.
func (f *Folder) writeInto(rel string, data []byte) error {
	path := filepath.Join(f.Dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := WriteFileAtomic(path, data); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// seriesName is the name of r's series file: the slug of its step's name,
// with the step's ID after it when another step of the manifest has the
// same slug (unique then says so).
func (f *Folder) seriesName(r *Record) (base string, unique string) {
	base = Slug(r.Name)
	for _, s := range f.Manifest.Steps {
		if s.ID != r.StepID && Slug(s.Name) == base {
			return base + "-" + r.StepID, r.StepID
		}
	}
	return base, ""
}

// fioLogPath is where fio's log of a kind of r's step goes:
// fio-logs/<drive>/<block>/[<rest of the step's name>.]<rw>-iodepth-<N>-numjobs-<M>_<kind>.1.log,
// a folder per drive and block as fio-plot takes them (-i FOLDER -r rw
// -d depths -n jobs), and within it the names it looks for. A step not
// named "<drive> / <block> / ..." gets a folder of its own name.
func fioLogPath(r *Record, unique, kind string) string {
	dir, rest := Slug(r.Name), ""
	if parts := strings.Split(r.Name, " / "); len(parts) >= 2 && parts[0] == r.Drive && parts[1] == r.Source {
		dir = filepath.Join(Slug(r.Drive), Slug(r.Source))
		if len(parts) > 2 {
			rest = Slug(strings.Join(parts[2:], " "))
		}
	}
	if unique != "" {
		rest = strings.TrimPrefix(rest+"-"+unique, "-")
	}
	w := r.Workload
	name := fmt.Sprintf("%s-iodepth-%d-numjobs-%d_%s.1.log", w.RW, w.IODepth, max(w.NumJobs, 1), kind)
	if rest != "" {
		name = rest + "." + name
	}
	return filepath.Join(FioLogsDir, dir, name)
}
