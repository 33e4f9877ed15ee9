package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"
)

// csvLayout is one of the public CSV trace layouts: its columns, how to
// tell a line of it without a header, and how to read one.
type csvLayout struct {
	format Format
	// header is the header line as its publisher names the columns;
	// the published files have none, but one may be added.
	header string
	// looks reports whether a line without a header is of this layout.
	looks func(f [][]byte) bool
	parse func(d *csvDecoder, f [][]byte) (IO, error)
}

// csvLayouts are told apart by their column count and the type column:
// MSR has seven columns, Alibaba's opcode is a letter, Tencent's IOType
// a digit.
var csvLayouts = []csvLayout{
	{MSR, "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
		func(f [][]byte) bool { return len(f) == 7 && isDigits(f[0]) && isDigits(f[2]) }, parseMSR},
	{Alibaba, "device_id,opcode,offset,length,timestamp",
		func(f [][]byte) bool { return len(f) == 5 && isDigits(f[0]) && len(f[1]) == 1 && !isDigits(f[1]) }, parseAlibaba},
	{Tencent, "Timestamp,Offset,Size,IOType,VolumeID",
		func(f [][]byte) bool { return len(f) == 5 && isDigits(f[0]) && isDigits(f[3]) }, parseTencent},
}

func isDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// splitCSV splits a line of these traces, which quote nothing, at its
// commas, trimming the spaces around each field.
func splitCSV(line []byte) [][]byte {
	f := bytes.Split(line, []byte(","))
	for i := range f {
		f[i] = bytes.TrimSpace(f[i])
	}
	return f
}

// detectCSV says which layout a CSV trace is in from its first line, a
// header naming the columns or a first record.
func detectCSV(head []byte) (Format, bool) {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	f := splitCSV(bytes.TrimSuffix(line, []byte("\r")))
	for _, l := range csvLayouts {
		if isHeader(f, l.header) || l.looks(f) {
			return l.format, true
		}
	}
	return "", false
}

func isHeader(f [][]byte, header string) bool {
	return strings.EqualFold(string(bytes.Join(f, []byte(","))), header)
}

func layoutOf(format Format) csvLayout {
	for _, l := range csvLayouts {
		if l.format == format {
			return l
		}
	}
	panic("trace: no CSV layout " + format)
}

// csvDecoder reads one CSV layout, a record a line.
type csvDecoder struct {
	lines
	layout  csvLayout
	columns int
	// epoch is the first record's time in a unit whose absolute values
	// do not fit in nanoseconds (MSR's FILETIME), which later ones are
	// counted from; started says it is set.
	epoch   int64
	started bool
}

func newCSVDecoder(name string, r *bufio.Reader, format Format) decoder {
	l := layoutOf(format)
	return &csvDecoder{lines: lines{name: name, r: r}, layout: l, columns: strings.Count(l.header, ",") + 1}
}

func (d *csvDecoder) next() (IO, error) {
	for {
		line, err := d.lines.next()
		if err != nil {
			return IO{}, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		f := splitCSV(line)
		if d.n == 1 && isHeader(f, d.layout.header) {
			continue
		}
		if len(f) != d.columns {
			return IO{}, d.errorf("%d columns where a %s line has %d (%s)", len(f), d.layout.format, d.columns, d.layout.header)
		}
		return d.layout.parse(d, f)
	}
}

// scaled parses a whole number of units of the given size in
// nanoseconds or bytes, naming the field and its unit in the error.
func (d *csvDecoder) scaled(field string, text []byte, unit int64) (int64, error) {
	v, err := d.uint(field, text, uint64(math.MaxInt64/unit))
	return v * unit, err
}

// sinceFirst reads a time column in units of unit nanoseconds whose
// absolute values overflow nanoseconds, as nanoseconds since the first
// record's.
func (d *csvDecoder) sinceFirst(field string, text []byte, unit int64) (int64, error) {
	v, err := d.uint(field, text, math.MaxInt64)
	if err != nil {
		return 0, err
	}
	if !d.started {
		d.epoch, d.started = v, true
	}
	rel := v - d.epoch
	if rel > math.MaxInt64/unit || rel < math.MinInt64/unit {
		return 0, d.errorf("%s %q is more than %v from the first record's", field, text, time.Duration(math.MaxInt64))
	}
	return rel * unit, nil
}

// op reads a type column: names are the values that mean read and write.
func (d *csvDecoder) op(field string, text []byte, read, write string) (Op, error) {
	switch {
	case strings.EqualFold(string(text), read):
		return Read, nil
	case strings.EqualFold(string(text), write):
		return Write, nil
	}
	return 0, d.errorf("%s %q is neither %s (read) nor %s (write)", field, text, read, write)
}

// fields parses the columns of a record named in the order given, into
// the values pointed to, each with its unit.
func (d *csvDecoder) fields(cols []csvField) error {
	for _, c := range cols {
		v, err := d.scaled(c.name, c.text, c.unit)
		if err != nil {
			return err
		}
		*c.to = v
	}
	return nil
}

type csvField struct {
	name string
	text []byte
	unit int64
	to   *int64
}

// parseMSR reads a line of the MSR Cambridge traces (SNIA IOTTA 388):
// Timestamp and ResponseTime in Windows FILETIME units of 100 ns, Type
// Read or Write, Offset and Size in bytes. The disk is Hostname_DiskNumber,
// as the trace files are named (usr_0.csv).
func parseMSR(d *csvDecoder, f [][]byte) (IO, error) {
	var off, size, lat int64
	err := d.fields([]csvField{
		{"Offset (bytes)", f[4], 1, &off},
		{"Size (bytes)", f[5], 1, &size},
		{"ResponseTime (100 ns)", f[6], 100, &lat},
	})
	if err != nil {
		return IO{}, err
	}
	at, err := d.sinceFirst("Timestamp (FILETIME, 100 ns)", f[0], 100)
	if err != nil {
		return IO{}, err
	}
	if !isDigits(f[2]) {
		return IO{}, d.errorf("DiskNumber %q is not a whole number", f[2])
	}
	op, err := d.op("Type", f[3], "Read", "Write")
	return IO{At: time.Duration(at), Op: op, Offset: off, Size: size,
		Device: fmt.Sprintf("%s_%s", f[1], f[2]), Latency: time.Duration(lat)}, err
}

// parseAlibaba reads a line of Alibaba's block traces (alibaba/block-traces):
// opcode R or W, offset and length in bytes, timestamp in microseconds.
func parseAlibaba(d *csvDecoder, f [][]byte) (IO, error) {
	var off, size, at int64
	err := d.fields([]csvField{
		{"offset (bytes)", f[2], 1, &off},
		{"length (bytes)", f[3], 1, &size},
		{"timestamp (microseconds)", f[4], 1000, &at},
	})
	if err != nil {
		return IO{}, err
	}
	op, err := d.op("opcode", f[1], "R", "W")
	return IO{At: time.Duration(at), Op: op, Offset: off, Size: size, Device: string(f[0])}, err
}

// parseTencent reads a line of the Tencent CBS traces (SNIA IOTTA 27917):
// Timestamp in Unix seconds, Offset and Size in 512-byte sectors, IOType
// 0 for read and 1 for write.
func parseTencent(d *csvDecoder, f [][]byte) (IO, error) {
	var at, off, size int64
	err := d.fields([]csvField{
		{"Timestamp (seconds)", f[0], int64(time.Second), &at},
		{"Offset (512-byte sectors)", f[1], 512, &off},
		{"Size (512-byte sectors)", f[2], 512, &size},
	})
	if err != nil {
		return IO{}, err
	}
	op, err := d.op("IOType", f[3], "0", "1")
	return IO{At: time.Duration(at), Op: op, Offset: off, Size: size, Device: string(f[4])}, err
}
