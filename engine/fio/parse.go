package fio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drivebench/drivebench/metrics"
)

// Output is one fio report, parsed.
type Output struct {
	// Version is fio's, such as "fio-3.33".
	Version string
	// Time is when fio wrote the report.
	Time time.Time
	// Latency names the fio measure every latency figure comes from: "lat"
	// (submission to completion) or "clat" (see the package comment).
	Latency string
	// Jobs are the report's job entries in order: one per job, or per
	// group under group_reporting; in client mode one per job and host,
	// without fio's "All clients" sum, which Merge recomputes exactly.
	Jobs []Job
	// Messages are the lines of text around the JSON: fio's warnings and
	// client notices such as "client: host=10.0.0.2 disconnected".
	Messages []string
	// Truncated is set when the output ends inside a later report, as
	// when fio was killed while writing; Jobs are then from the last
	// complete one.
	Truncated bool
	// Offset is where the report starts in the output, in bytes.
	Offset int
	// Snapshots counts the status reports of the run before this one
	// (--status-interval), which ParseRuns folded into it.
	Snapshots int
	// Warnings note figures that could not be taken at face value.
	Warnings []string
}

// Job is one job entry of a report.
type Job struct {
	Name string
	// Host is the fio server ("hostname,port") in client mode, "" for a
	// local run.
	Host string
	// Error is the errno fio reports for the job; 0 when it succeeded.
	Error int
	// Options are the job's options over the report's global options, as
	// fio printed them.
	Options map[string]string
	// runtime is how long the job ran, elapsed how long since fio
	// started it, in whole seconds rounded up, as fio printed them.
	runtime, elapsed time.Duration
	// Problems are what makes the job's figures untrustworthy: latency
	// bins that are not numbers of ns, I/O counted in no time.
	Problems []string
	figures  jobFigures
}

// Result is the job's own figures as a result.
func (j Job) Result() *metrics.Result { return j.figures.result() }

// Result merges every job of the report (see Merge).
func (o *Output) Result() *metrics.Result { return Merge(o.Jobs) }

// Parse reads fio's JSON or json+ output. Text before, between and after
// the JSON (fio mixes warnings and client notices into it) is kept in
// Messages; when the output holds several reports (--status-interval) the
// last complete one is used. It fails when the output holds no complete
// report, quoting what fio printed instead. ParseRuns reads every run of
// an output that holds several.
func Parse(out []byte) (*Output, error) {
	s := scan(out)
	if len(s.reports) == 0 {
		return nil, noReportError(s)
	}
	last := s.reports[len(s.reports)-1]
	o, err := decodeReport(last.raw)
	if err != nil {
		return nil, err
	}
	o.Offset = last.offset
	o.Messages, o.Truncated = s.messages, s.cut >= 0
	return o, nil
}

// scanned is what scan found in fio's output. Offsets are those of the
// output as given.
type scanned struct {
	reports  []foundReport
	messages []string
	// after are the text lines after the last report.
	after []string
	// cut is the offset of a report the output ends inside, -1 when it
	// ends after one; damaged is the first report that is not JSON.
	cut     int
	damaged *ReadError
	size    int
	// orig maps an offset of the text scanned, fio's non-JSON numbers
	// replaced, back to the output.
	orig func(int) int
}

// foundReport is one complete report in fio's output: its JSON, its
// offset, and the text lines between it and the report before it.
type foundReport struct {
	raw    []byte
	offset int
	// at is the report's offset in the scanned text.
	at     int
	before []string
}

// scan finds every complete fio report in out and the text around the
// JSON. A '{' that starts neither a report nor a truncated one is text;
// one that starts a report (its first key is "fio version") that is not
// JSON is recorded as damaged and read as text.
func scan(out []byte) scanned {
	text, orig := replaceBadNumbers(out)
	s := scanned{size: len(out), cut: -1, orig: orig}
	from := 0
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], '{')
		if j < 0 {
			break
		}
		start := i + j
		raw, n, err := decodeObject(text[start:])
		switch {
		case err == nil && isReport(raw):
			before := appendText(nil, text[from:start])
			s.reports = append(s.reports, foundReport{raw: raw, offset: orig(start), at: start, before: before})
			s.messages = append(s.messages, before...)
			i, from = start+n, start+n
		case err == nil:
			i = start + n
		case errors.Is(err, io.ErrUnexpectedEOF):
			// The rest of the output is one unfinished JSON value: a
			// report cut short when it starts a line, as fio's do.
			if startsLine(text, start) {
				s.cut = orig(start)
			}
			s.messages = appendText(s.messages, text[from:start])
			return s
		default:
			if s.damaged == nil && reportStart.Match(text[start:]) {
				s.damaged = damagedReport(out, orig, start, err)
			}
			i = start + 1
		}
	}
	s.after = appendText(nil, text[from:])
	s.messages = append(s.messages, s.after...)
	return s
}

// reportStart is how fio begins a report.
var reportStart = regexp.MustCompile(`^\{\s*"fio version"`)

// startsLine reports whether the '{' at i is the first thing on its line,
// as fio writes the start of a report.
func startsLine(out []byte, i int) bool {
	return i == 0 || out[i-1] == '\n'
}

// appendText appends the non-empty lines of text.
func appendText(lines []string, text []byte) []string {
	for line := range strings.SplitSeq(string(text), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// replaceBadNumbers replaces the non-JSON numbers some fio versions print
// ("-nan", "inf") by null, and gives the function that maps an offset of
// the new text back to out.
func replaceBadNumbers(out []byte) ([]byte, func(int) int) {
	matches := badNumbers.FindAllSubmatchIndex(out, -1)
	if len(matches) == 0 {
		return out, func(i int) int { return i }
	}
	var text []byte
	type shift struct{ at, by int }
	var shifts []shift
	prev := 0
	for _, m := range matches {
		text = append(append(text, out[prev:m[3]]...), "null"...)
		shifts = append(shifts, shift{at: len(text), by: len(text) - m[1]})
		prev = m[1]
	}
	text = append(text, out[prev:]...)
	return text, func(i int) int {
		by := 0
		for _, s := range shifts {
			if i < s.at {
				break
			}
			by = s.by
		}
		return i - by
	}
}

// decodeObject decodes the JSON value at the start of b and returns it and
// its length.
func decodeObject(b []byte) (json.RawMessage, int, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, 0, err
	}
	return raw, int(dec.InputOffset()), nil
}

// isReport reports whether raw is a fio report rather than some other
// object in the text.
func isReport(raw json.RawMessage) bool {
	var probe struct {
		Version *string           `json:"fio version"`
		Jobs    []json.RawMessage `json:"jobs"`
		Clients []json.RawMessage `json:"client_stats"`
	}
	return json.Unmarshal(raw, &probe) == nil && (probe.Version != nil || probe.Jobs != nil || probe.Clients != nil)
}

// noReportError explains output without a report, quoting fio's words.
func noReportError(s scanned) error {
	what := "no JSON report"
	if s.cut >= 0 {
		what = "a JSON report cut short"
	}
	if len(s.messages) == 0 {
		return fmt.Errorf("fio's output (%d bytes) holds %s", s.size, what)
	}
	shown := s.messages[:min(len(s.messages), 5)]
	return fmt.Errorf("fio's output holds %s; it says: %s", what, strings.Join(shown, " / "))
}

// The JSON fio writes, as far as drivebench reads it.
type (
	reportJSON struct {
		Version     string      `json:"fio version"`
		Timestamp   int64       `json:"timestamp"`
		TimestampMs int64       `json:"timestamp_ms"`
		Global      optionsJSON `json:"global options"`
		Jobs        []jobJSON   `json:"jobs"`
		Clients     []jobJSON   `json:"client_stats"`
	}
	jobJSON struct {
		Name       string      `json:"jobname"`
		Error      int         `json:"error"`
		Options    optionsJSON `json:"job options"`
		Read       dirJSON     `json:"read"`
		Write      dirJSON     `json:"write"`
		JobRuntime uint64      `json:"job_runtime"`
		Elapsed    uint64      `json:"elapsed"`
		UsrCPU     float64     `json:"usr_cpu"`
		SysCPU     float64     `json:"sys_cpu"`
		Hostname   *string     `json:"hostname"`
		Port       int         `json:"port"`
	}
	dirJSON struct {
		IOBytes  uint64  `json:"io_bytes"`
		Runtime  uint64  `json:"runtime"`
		TotalIOs uint64  `json:"total_ios"`
		Clat     latJSON `json:"clat_ns"`
		Lat      latJSON `json:"lat_ns"`
	}
	latJSON struct {
		Min        uint64            `json:"min"`
		Max        uint64            `json:"max"`
		Mean       float64           `json:"mean"`
		Stddev     float64           `json:"stddev"`
		N          uint64            `json:"N"`
		Percentile map[string]uint64 `json:"percentile"`
		Bins       map[string]uint64 `json:"bins"`
	}
)

// optionsJSON reads fio's option maps, keeping any value that is not a
// string as its JSON text.
type optionsJSON map[string]string

func (o *optionsJSON) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*o = optionsJSON{}
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v)
		}
		(*o)[k] = s
	}
	return nil
}

// badNumbers are the non-JSON numbers some fio versions print for empty
// statistics ("-nan", "inf").
var badNumbers = regexp.MustCompile(`(:\s*)-?(?:nan|inf)\b`)

// allClients is the jobname of fio's sum over client-mode hosts.
const allClients = "All clients"

// decodeReport turns one report into an Output.
func decodeReport(raw []byte) (*Output, error) {
	var r reportJSON
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("fio's JSON report: %w", err)
	}
	o := &Output{Version: r.Version, Time: reportTime(r)}
	entries := r.Jobs
	if len(r.Clients) > 0 {
		entries = slices.DeleteFunc(r.Clients, func(j jobJSON) bool { return j.Name == allClients })
	}
	o.Latency = latencyMeasure(entries)
	for _, e := range entries {
		o.Jobs = append(o.Jobs, o.decodeJob(e, r.Global))
	}
	return o, nil
}

func reportTime(r reportJSON) time.Time {
	if r.TimestampMs > 0 {
		return time.UnixMilli(r.TimestampMs).UTC()
	}
	return time.Unix(r.Timestamp, 0).UTC()
}

// LatencyDefinition names the measure of the output's latency figures as
// a result records it.
func (o *Output) LatencyDefinition() string {
	if o.Latency == "clat" {
		return metrics.LatencyFioClat
	}
	return metrics.LatencyFioLat
}

// latencyMeasure picks lat when fio recorded its distribution (percentiles
// or bins) for every direction that did I/O, clat otherwise.
func latencyMeasure(entries []jobJSON) string {
	for _, e := range entries {
		for _, d := range []dirJSON{e.Read, e.Write} {
			if d.TotalIOs > 0 && len(d.Lat.Percentile) == 0 && len(d.Lat.Bins) == 0 {
				return "clat"
			}
		}
	}
	return "lat"
}

func (o *Output) decodeJob(e jobJSON, global optionsJSON) Job {
	opts := maps.Clone(map[string]string(global))
	if opts == nil {
		opts = map[string]string{}
	}
	maps.Copy(opts, e.Options)
	j := Job{Name: e.Name, Error: e.Error, Options: opts,
		runtime: time.Duration(e.JobRuntime) * time.Millisecond, elapsed: time.Duration(e.Elapsed) * time.Second}
	if e.Hostname != nil {
		j.Host = *e.Hostname + "," + strconv.Itoa(e.Port)
	}
	j.figures = jobFigures{
		read:  o.decodeDir(e.Read, &j, "read"),
		write: o.decodeDir(e.Write, &j, "write"),
		cpu:   cpuTime(e),
		end:   o.Time,
	}
	return j
}

// cpuTime converts fio's CPU percentages of the job's runtime to seconds.
func cpuTime(e jobJSON) metrics.CPU {
	secs := float64(e.JobRuntime) / 1000
	return metrics.CPU{UserSec: e.UsrCPU / 100 * secs, SysSec: e.SysCPU / 100 * secs}
}

func (o *Output) decodeDir(d dirJSON, j *Job, dir string) dirFigures {
	l := d.Clat
	if o.Latency == "lat" {
		l = d.Lat
	}
	f := dirFigures{
		ios:       d.TotalIOs,
		bytes:     d.IOBytes,
		runtimeMs: d.Runtime,
		lat:       latStats{n: l.N, min: l.Min, max: l.Max, mean: l.Mean, stddev: l.Stddev},
	}
	f.percentiles = percentiles(l.Percentile)
	if len(l.Bins) > 0 {
		f.hist = o.histogram(l, j, dir)
	}
	if d.TotalIOs > 0 && d.Runtime == 0 {
		j.Problems = append(j.Problems, fmt.Sprintf("%s: %d I/Os in a runtime of 0 ms, so no rate can be computed from them", dir, d.TotalIOs))
	}
	return f
}

// percentiles lists fio's printed percentiles in ascending order.
func percentiles(m map[string]uint64) []metrics.Percentile {
	var ps []metrics.Percentile
	for k, v := range m {
		if p, err := strconv.ParseFloat(k, 64); err == nil {
			ps = append(ps, metrics.Percentile{P: p, Ns: v})
		}
	}
	slices.SortFunc(ps, func(a, b metrics.Percentile) int {
		switch {
		case a.P < b.P:
			return -1
		case a.P > b.P:
			return 1
		}
		return 0
	})
	return ps
}

// histogram adds fio's bins into a histogram; fio's layout is ours, so
// each bin lands in its own bucket.
func (o *Output) histogram(l latJSON, j *Job, dir string) *metrics.Histogram {
	h := new(metrics.Histogram)
	var bad []string
	for k, c := range l.Bins {
		v, err := strconv.ParseUint(k, 10, 64)
		if err != nil {
			bad = append(bad, strconv.Quote(k))
			continue
		}
		h.AddBucket(v, c)
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		j.Problems = append(j.Problems, fmt.Sprintf("%s: the latency bins %s are not numbers of ns", dir, strings.Join(bad, ", ")))
	}
	if h.Count() != l.N {
		o.Warnings = append(o.Warnings, fmt.Sprintf("job %s: the latency bins hold %d samples but fio counted %d", j.Name, h.Count(), l.N))
	}
	return h
}
