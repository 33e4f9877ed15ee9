package reports

import (
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/judging"
)

// bwUnit is the unit a report gives bandwidth in: decimal megabytes per
// second, as most reviews, or mebibytes, as Tom's Hardware (the plan's
// report { units = "MiB/s" }).
type bwUnit string

// The bandwidth units.
const (
	unitMBps  bwUnit = "MB/s"
	unitMiBps bwUnit = "MiB/s"
)

// unitOf is the unit a manifest names, MB/s when it names none.
func unitOf(name string) bwUnit {
	if bwUnit(name) == unitMiBps {
		return unitMiBps
	}
	return unitMBps
}

// number writes a bandwidth in bytes per second in the unit, without it:
// "8,668.1".
func (u bwUnit) number(bytesPerSec float64) string {
	if u == unitMiBps {
		return format.MiBps(bytesPerSec)
	}
	return format.MBps(bytesPerSec)
}

// text writes a bandwidth with the unit: "8,266.4 MiB/s".
func (u bwUnit) text(bytesPerSec float64) string {
	if u == unitMiBps {
		return format.BandwidthMiB(bytesPerSec)
	}
	return format.Bandwidth(bytesPerSec)
}

// short writes a bandwidth for a chart tick or a mark: "13.4 GB/s",
// "12.5 GiB/s".
func (u bwUnit) short(bytesPerSec float64) string {
	if u == unitMiBps {
		return format.Significant(bytesPerSec, format.BinaryBandwidthUnits)
	}
	return format.Significant(bytesPerSec, format.BandwidthUnits)
}

// tick writes a bandwidth on a chart's axis: "13.4 GB/s", "12 GiB/s".
func (u bwUnit) tick(bytesPerSec float64) string {
	if u == unitMiBps {
		return format.Scaled(bytesPerSec, format.BinaryBandwidthUnits)
	}
	return format.ShortBandwidth(bytesPerSec)
}

// claim writes a spec sheet's bandwidth as the sheet states it, in
// decimal MB/s, and in the unit too when that is another: "6,200 MB/s",
// "6,200 MB/s (5,912.8 MiB/s)".
func (u bwUnit) claim(bytesPerSec float64) string {
	sheet := format.Plain(bytesPerSec/1e6) + " MB/s"
	if u == unitMiBps {
		return sheet + " (" + u.text(bytesPerSec) + ")"
	}
	return sheet
}

// unit is the bandwidth unit of a table; a table made outside Build has
// the default.
func (t *ProfileResult) unit() bwUnit { return unitOf(string(t.units)) }

// unit is the bandwidth unit of the report.
func (s *Summary) unit() bwUnit { return unitOf(s.Units) }

// column is the title of a bandwidth column: "MB/s".
func (u bwUnit) column() string { return string(u) }

// definition says what the unit is, for the report's notes.
func (u bwUnit) definition() string {
	if u == unitMiBps {
		return "Bandwidth is in MiB/s (binary: 1 MiB/s is 2^20 bytes per second)."
	}
	return "Bandwidth is in MB/s (decimal: 1 MB/s is 10^6 bytes per second)."
}

// bandwidths writes the bandwidths of an acceptance sentence in the
// unit: a measured one as the tables give it, a claimed one as the sheet
// does with the unit beside (claim); nil for MB/s, where both are as
// the sheet writes them (judging.Bandwidths).
func (u bwUnit) bandwidths() judging.Bandwidths {
	if u != unitMiBps {
		return nil
	}
	return u
}

// Measured writes a measured bandwidth in the unit.
func (u bwUnit) Measured(bytesPerSec float64) string { return u.text(bytesPerSec) }

// Claimed writes a claimed bandwidth as the sheet states it, and in the
// unit.
func (u bwUnit) Claimed(bytesPerSec float64) string { return u.claim(bytesPerSec) }
