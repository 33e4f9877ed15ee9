package reports

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// healthOf is the health of the named drive, nil when the run has none.
func (s *Summary) healthOf(drive string) *DriveHealth {
	for i := range s.Health {
		if s.Health[i].Drive == drive {
			return &s.Health[i]
		}
	}
	return nil
}

// nvmeIdentityRows are what the controller said of itself, for the
// drive specifications beside the spec sheet.
func nvmeIdentityRows(id *results.NVMeIdentity) [][][]span {
	rows := [][][]span{
		{spans("Model (NVMe)"), spans(orDash(id.Model))},
		{spans("Serial number"), spans(orDash(id.Serial))},
		{spans("Firmware"), spans(orDash(id.Firmware))},
		{spans("NVMe version"), spans(orDash(id.NVMeVersion))},
		{spans("PCI vendor ID"), spans(fmt.Sprintf("0x%04x", id.VendorID))},
	}
	if id.NamespaceBytes > 0 {
		rows = append(rows, [][]span{spans(fmt.Sprintf("Namespace %d", id.NSID)), spans(bytesInFull(id.NamespaceBytes))})
	}
	total := "not reported"
	if id.TotalCapacityBytes != nil {
		total = bytesInFull(*id.TotalCapacityBytes)
	}
	rows = append(rows, [][]span{spans("Total NVM capacity"), spans(total)})
	if f := id.LBAFormat; f != nil {
		rows = append(rows, [][]span{spans("LBA format in use"), spans(lbaFormatText(*f, id.LBAFormats))})
	}
	if id.WarningTempC != nil || id.CriticalTempC != nil {
		rows = append(rows, [][]span{spans("Temperature thresholds"), spans(thresholdsText(id))})
	}
	return rows
}

// bytesInFull writes a size both ways: "1.07 GB (1,073,741,824 bytes)".
func bytesInFull(n uint64) string {
	return fmt.Sprintf("%s (%s bytes)", format.Bytes(n), format.Count(float64(n)))
}

// lbaFormatText describes a format: "512 B data, no metadata (format 0
// of 8, best performance)".
func lbaFormatText(f results.LBAFormat, count int) string {
	meta := "no metadata"
	if f.MetadataBytes > 0 {
		meta = fmt.Sprintf("%d B metadata", f.MetadataBytes)
	}
	perf := []string{"best", "better", "good", "degraded"}[f.RelativePerformance&3]
	return fmt.Sprintf("%s B data, %s (format %d of %d, %s performance)",
		format.Count(float64(f.DataBytes)), meta, f.Index, count, perf)
}

func thresholdsText(id *results.NVMeIdentity) string {
	var parts []string
	if id.WarningTempC != nil {
		parts = append(parts, fmt.Sprintf("warning %d °C", *id.WarningTempC))
	}
	if id.CriticalTempC != nil {
		parts = append(parts, fmt.Sprintf("critical %d °C", *id.CriticalTempC))
	}
	return strings.Join(parts, ", ")
}

// identityFacts are the detected facts that the NVMe identity states too.
var identityFacts = map[string]func(*results.NVMeIdentity) string{
	"model":    func(id *results.NVMeIdentity) string { return id.Model },
	"serial":   func(id *results.NVMeIdentity) string { return id.Serial },
	"firmware": func(id *results.NVMeIdentity) string { return id.Firmware },
}

// repeatsIdentity reports whether a fact says what the identity says.
func repeatsIdentity(f Fact, id *results.NVMeIdentity) bool {
	get, ok := identityFacts[f.Name]
	return ok && id != nil && get(id) == f.Value
}

// docHealth shows each NVMe drive's two readings and what changed
// between them.
func docHealth(d *document, s *Summary) {
	if len(s.Health) == 0 {
		return
	}
	d.heading(2, plain("Drive health"))
	d.para(plain("What each NVMe drive reported in its SMART/health log before and after the run. " +
		"The log is the controller's: its counters include any other I/O in that time, " +
		"and it counts data in units of 512,000 bytes, rounded up."))
	for _, h := range s.Health {
		d.heading(3, plain(orDash(h.Drive)))
		if h.Before != nil || h.After != nil {
			d.table([]column{{title: "Reading"}, {title: "Before"}, {title: "After"}, {title: "Change"}}, healthRows(h))
		}
		d.para(plain(h.Highlight))
		for _, n := range h.Notes {
			d.para(plain("Note: " + n))
		}
	}
}

// healthLine is one line of the health table: a reading's value, and
// how it changed between the readings ("" when that says nothing).
type healthLine struct {
	name    string
	reading func(*HealthReading) string
	change  func(DriveHealth) string
}

var healthLines = []healthLine{
	{"Time", timeText, func(h DriveHealth) string { return apart(h.Before, h.After) }},
	{"Temperature", func(r *HealthReading) string { return tempText(r.TemperatureC) }, temperatureRange},
	{"Data written", func(r *HealthReading) string { return unitsText(r.DataUnitsWritten) }, func(h DriveHealth) string {
		return format.Bytes(h.Change.BytesWritten) + " (drivebench wrote " + format.Bytes(h.EngineBytesWritten) + ")"
	}},
	{"Data read", func(r *HealthReading) string { return unitsText(r.DataUnitsRead) }, func(h DriveHealth) string { return format.Bytes(h.Change.BytesRead) }},
	{"Media errors", func(r *HealthReading) string { return groupDigits(r.MediaErrors) }, func(h DriveHealth) string { return signedCount(h.Change.MediaErrors) }},
	{"Error-log entries", func(r *HealthReading) string { return groupDigits(r.ErrorLogEntries) }, func(h DriveHealth) string { return signedCount(h.Change.ErrorLogEntries) }},
	{"Unsafe shutdowns", func(r *HealthReading) string { return groupDigits(r.UnsafeShutdowns) }, func(h DriveHealth) string { return signedCount(h.Change.UnsafeShutdowns) }},
	{"Life used", func(r *HealthReading) string { return fmt.Sprintf("%d%%", r.PercentUsed) }, func(h DriveHealth) string {
		return fmt.Sprintf("%+d points", h.Change.PercentUsed)
	}},
	{"Available spare", func(r *HealthReading) string {
		return fmt.Sprintf("%d%% (threshold %d%%)", r.AvailableSparePct, r.SpareThresholdPct)
	}, nil},
	{"Critical warnings", func(r *HealthReading) string { return warningsText(r.CriticalWarnings) }, newWarningsText},
	{"Power-on hours", func(r *HealthReading) string { return groupDigits(r.PowerOnHours) }, nil},
}

// healthRows set the two readings and their change side by side; a format.Dash
// stands for a reading or a change the document does not have.
func healthRows(h DriveHealth) [][]string {
	var rows [][]string
	for _, l := range healthLines {
		row := []string{l.name, format.Dash, format.Dash, format.Dash}
		for i, r := range []*HealthReading{h.Before, h.After} {
			if r != nil {
				row[i+1] = l.reading(r)
			}
		}
		switch {
		case l.change == nil:
			row[3] = ""
		case h.Change != nil:
			row[3] = l.change(h)
		}
		rows = append(rows, row)
	}
	return rows
}

func timeText(r *HealthReading) string {
	if r.Time.IsZero() {
		return format.Dash
	}
	return r.Time.Format("2006-01-02 15:04 UTC")
}

// apart is the time between the readings: "41 min 12 s apart".
func apart(before, after *HealthReading) string {
	if before == nil || after == nil || before.Time.IsZero() || after.Time.IsZero() {
		return format.Dash
	}
	return format.Duration(int64(after.Time.Sub(before.Time))) + " apart"
}

func tempText(c *int) string {
	if c == nil {
		return "not reported"
	}
	return fmt.Sprintf("%d °C", *c)
}

func temperatureRange(h DriveHealth) string {
	c := h.Change
	switch {
	case c.TemperatureMinC == nil && c.TemperatureMaxC == nil:
		return format.Dash
	case c.TemperatureMaxC == nil:
		return "from " + tempText(c.TemperatureMinC)
	case c.TemperatureMinC == nil:
		return "up to " + tempText(c.TemperatureMaxC)
	case *c.TemperatureMinC == *c.TemperatureMaxC:
		return "steady at " + tempText(c.TemperatureMinC)
	}
	return fmt.Sprintf("%d to %d °C", *c.TemperatureMinC, *c.TemperatureMaxC)
}

// unitsText writes a data-unit count: "5,096 units".
func unitsText(units string) string {
	if units == "1" {
		return "1 unit"
	}
	return groupDigits(units) + " units"
}

func signedCount(n uint64) string { return "+" + format.Count(float64(n)) }

func newWarningsText(h DriveHealth) string {
	if w := h.Change.NewCriticalWarnings; len(w) > 0 {
		return "new: " + strings.Join(w, ", ")
	}
	return "none new"
}

func warningsText(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// groupDigits puts commas between groups of three digits of a decimal
// string of any length: "1234567" -> "1,234,567".
func groupDigits(digits string) string {
	if digits == "" {
		return format.Dash
	}
	var b strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

// healthSentences say what a reviewer reads off the readings: how much
// the drive counted written against what drivebench wrote, its
// temperature, and whether it logged errors or raised warnings.
func healthSentences(h DriveHealth) string {
	switch {
	case h.Before == nil && h.After == nil:
		return "The drive's SMART/health log was not read."
	case h.After == nil:
		return "The drive was read before the run only, so the report cannot say how it changed."
	case h.Before == nil:
		return "The drive was read after the run only, so the report cannot say how it changed."
	case h.Change == nil:
		return "The two readings cannot be compared."
	}
	return joinSentences(writtenSentence(h), temperatureSentence(h), errorsSentence(h))
}

// writtenSentence sets the drive's count of data written beside what
// drivebench wrote.
func writtenSentence(h DriveHealth) string {
	c := h.Change
	counted := fmt.Sprintf("Between the readings the drive counted %s written (%s of 512,000 bytes)",
		format.Bytes(c.BytesWritten), countOf(c.BytesWritten/results.DataUnitBytes, "data unit", "data units"))
	switch {
	case c.BytesWritten == 0 && h.EngineBytesWritten == 0:
		return "Neither the drive nor drivebench counted any data written between the readings."
	case c.WrittenRatio == nil:
		return counted + ", though drivebench wrote nothing to it in that time."
	}
	return fmt.Sprintf("%s, %s× the %s drivebench wrote.", counted, format.Grouped(*c.WrittenRatio, 2), format.Bytes(h.EngineBytesWritten))
}

func temperatureSentence(h DriveHealth) string {
	b, a := h.Before.TemperatureC, h.After.TemperatureC
	var text string
	switch {
	case b == nil || a == nil:
		return ""
	case *b == *a:
		text = fmt.Sprintf("Its temperature was %d °C at both readings", *b)
	default:
		text = fmt.Sprintf("Its temperature went from %d °C to %d °C", *b, *a)
	}
	if id := h.Identity; id != nil && id.WarningTempC != nil && max(*a, *b) >= *id.WarningTempC {
		text += fmt.Sprintf(", at or above its warning threshold of %d °C", *id.WarningTempC)
	}
	return text + "."
}

// errorsSentence names what the drive added to its error counters and
// warnings, or says it added nothing.
func errorsSentence(h DriveHealth) string {
	c := h.Change
	var added []string
	if c.MediaErrors > 0 {
		added = append(added, countOf(c.MediaErrors, "media error", "media errors"))
	}
	if c.ErrorLogEntries > 0 {
		added = append(added, countOf(c.ErrorLogEntries, "error-log entry", "error-log entries"))
	}
	for _, w := range c.NewCriticalWarnings {
		added = append(added, "a critical warning ("+warningMeaning(w)+")")
	}
	var text string
	if len(added) == 0 {
		text = "It added no media error, error-log entry or critical warning."
	} else {
		text = "It added " + listWords(added) + "."
	}
	if c.PercentUsed > 0 {
		text += fmt.Sprintf(" Its life-used estimate rose by %d points.", c.PercentUsed)
	}
	if len(h.Before.CriticalWarnings) > 0 {
		text += " It already reported " + warningsText(h.Before.CriticalWarnings) + " before the run."
	}
	return text
}

// countOf writes a count with its noun: "1 media error", "2,101 data
// units".
func countOf(n uint64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return format.Count(float64(n)) + " " + many
}

// listWords joins words as prose: "a, b and c".
func listWords(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
