package fio

import (
	"bufio"
	"bytes"
	"io"

	"github.com/drivebench/drivebench/metrics"
)

// maxTextLines bounds the lines of text kept from around fio's reports.
const maxTextLines = 200

// reportStream reads fio's standard output as it is written. With
// --status-interval fio prints a full report every interval; the stream
// hands each to onReport and keeps only the latest, with the text around
// the reports and whatever follows the last complete one, so a long run
// needs no more memory than one report.
type reportStream struct {
	onReport func(raw []byte)
	text     [][]byte
	last     []byte
	partial  bytes.Buffer
	inReport bool
}

// consume reads r to its end. fio writes each report starting with a
// line "{" and ending with a line "}".
func (s *reportStream) consume(r io.Reader) error {
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			s.line(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (s *reportStream) line(line []byte) {
	trimmed := bytes.TrimRight(line, "\r\n")
	switch {
	case !s.inReport && bytes.Equal(trimmed, []byte("{")):
		s.inReport = true
		s.partial.Reset()
		s.partial.Write(line)
	case s.inReport:
		s.partial.Write(line)
		if bytes.Equal(trimmed, []byte("}")) {
			s.inReport = false
			s.last = bytes.Clone(s.partial.Bytes())
			s.partial.Reset()
			if s.onReport != nil {
				s.onReport(s.last)
			}
		}
	case len(s.text) < maxTextLines:
		s.text = append(s.text, bytes.Clone(line))
	}
}

// output is what Parse should read: the text, the last complete report
// and any report that was cut short after it.
func (s *reportStream) output() []byte {
	var b bytes.Buffer
	for _, l := range s.text {
		b.Write(l)
	}
	b.Write(s.last)
	b.Write(s.partial.Bytes())
	return b.Bytes()
}

// liveSampler turns fio's periodic reports into samples of the interval
// since the previous report.
type liveSampler struct {
	live func(metrics.Sample)
	prev liveTotals
}

// liveTotals are a report's running totals over all jobs.
type liveTotals struct {
	// t is the measured time in seconds: the longest job's runtime.
	t                     float64
	readIOs, writeIOs     uint64
	readBytes, writeBytes uint64
	latSum                float64
	latCount              uint64
}

func totalsOf(o *Output) liveTotals {
	var t liveTotals
	for _, j := range o.Jobs {
		r, w := j.figures.read, j.figures.write
		t.t = max(t.t, float64(max(r.runtimeMs, w.runtimeMs))/1000)
		t.readIOs += r.ios
		t.writeIOs += w.ios
		t.readBytes += r.bytes
		t.writeBytes += w.bytes
		t.latSum += r.lat.mean*float64(r.lat.n) + w.lat.mean*float64(w.lat.n)
		t.latCount += r.lat.n + w.lat.n
	}
	return t
}

// report samples the interval that ended with the report raw. A report
// whose time or counts went backwards starts the measured phase (fio
// resets its counters when the ramp ends).
func (l *liveSampler) report(raw []byte) {
	o, err := Parse(raw)
	if err != nil {
		return
	}
	cur := totalsOf(o)
	if cur.t < l.prev.t || cur.readIOs < l.prev.readIOs || cur.writeIOs < l.prev.writeIOs {
		l.prev = liveTotals{}
	}
	dt := cur.t - l.prev.t
	if dt <= 0 {
		return
	}
	s := metrics.Sample{
		T:            cur.t,
		ReadIOPS:     float64(cur.readIOs-l.prev.readIOs) / dt,
		WriteIOPS:    float64(cur.writeIOs-l.prev.writeIOs) / dt,
		BW:           float64(cur.readBytes+cur.writeBytes-l.prev.readBytes-l.prev.writeBytes) / dt,
		BytesWritten: cur.writeBytes,
	}
	if n := cur.latCount - l.prev.latCount; n > 0 {
		s.MeanLatNs = (cur.latSum - l.prev.latSum) / float64(n)
	}
	l.prev = cur
	l.live(s)
}
