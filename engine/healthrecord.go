package engine

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/drivebench/drivebench/nvme"
	"github.com/drivebench/drivebench/results"
)

// HealthRecord is a drive's health as the results folder keeps it, made
// from the nvme package's snapshots before and after the run (either may
// be nil) and what drivebench wrote in between: the one place NVMe
// identify data and SMART logs become results values. problem is what
// went wrong reading the drive, "" when nothing did.
func HealthRecord(drive string, before, after *nvme.HealthSnapshot, written uint64, problem string) *results.Health {
	h := &results.Health{Schema: results.HealthSchema, Drive: drive, EngineBytesWritten: written}
	if problem != "" {
		h.Notes = append(h.Notes, problem)
	}
	first := before
	if first == nil {
		first = after
	}
	if first != nil {
		h.Path, h.Identity = first.Path, identity(first)
	}
	h.Before, h.After = reading(before), reading(after)
	if h.Before != nil && h.After != nil {
		c, err := nvme.DiffSmart(before.SmartLog, after.SmartLog)
		switch {
		case err != nil && !slices.Contains(h.Notes, err.Error()):
			h.Notes = append(h.Notes, err.Error())
		case err == nil:
			h.Change = change(c, h.Before, h.After, written, &h.Notes)
		}
	}
	return h
}

// identity is what a snapshot's identify data say; nil without any.
func identity(s *nvme.HealthSnapshot) *results.NVMeIdentity {
	c, ns := s.IDCtrl, s.IDNs
	if c == nil && ns == nil {
		return nil
	}
	id := &results.NVMeIdentity{NSID: s.NSID}
	if c != nil {
		id.Model, id.Serial, id.Firmware = c.MN, c.SN, c.FR
		id.NVMeVersion, id.VendorID = c.Version, c.VID
		id.WarningTempC, id.CriticalTempC = celsius(c.WCTEMP), celsius(c.CCTEMP)
		if n, ok := c.TNVMCAP.Uint64(); ok && n > 0 {
			id.TotalCapacityBytes = &n
		}
	}
	if ns != nil {
		id.NamespaceBytes = ns.CapacityBytes
		id.LBAFormats = len(ns.LBAFormats)
		if i := ns.FormatInUse; i >= 0 && i < len(ns.LBAFormats) {
			f := ns.LBAFormats[i]
			id.LBAFormat = &results.LBAFormat{Index: i, DataBytes: ns.BlockSize, MetadataBytes: int(f.MS), RelativePerformance: int(f.RP & 3)}
			if id.LBAFormat.DataBytes == 0 && f.LBADS >= 9 && f.LBADS < 64 {
				id.LBAFormat.DataBytes = 1 << f.LBADS
			}
		}
	}
	return id
}

// celsius is a temperature in °C; nil for 0 K, which means not reported.
func celsius(k nvme.Kelvin) *int {
	if k == 0 {
		return nil
	}
	c := k.Celsius()
	return &c
}

// reading is a snapshot's SMART/health log; nil without one.
func reading(s *nvme.HealthSnapshot) *results.HealthReading {
	if s == nil || s.SmartLog == nil {
		return nil
	}
	l := s.SmartLog
	return &results.HealthReading{
		Time:              s.Time.UTC(),
		TemperatureC:      celsius(l.Temperature),
		CriticalWarnings:  warningNames(l.CriticalWarning),
		AvailableSparePct: int(l.AvailSpare),
		SpareThresholdPct: int(l.SpareThresh),
		PercentUsed:       int(l.PercentUsed),
		DataUnitsRead:     l.DataUnitsRead.String(),
		DataUnitsWritten:  l.DataUnitsWritten.String(),
		MediaErrors:       l.MediaErrors.String(),
		ErrorLogEntries:   l.NumErrLogEntries.String(),
		PowerOnHours:      l.PowerOnHours.String(),
		UnsafeShutdowns:   l.UnsafeShutdowns.String(),
	}
}

// change is how the counters moved, with the temperatures of the readings
// and the drive's count of writes beside the engine's. A counter that
// moved by more than 64 bits can only be a broken reading: the change is
// then left out with a note.
func change(c *nvme.SmartChange, before, after *results.HealthReading, engine uint64, notes *[]string) *results.HealthChange {
	ch := &results.HealthChange{PercentUsed: c.PercentUsed, NewCriticalWarnings: warningNames(c.NewWarnings)}
	fits := true
	for _, f := range []struct {
		dst *uint64
		get func() (uint64, bool)
	}{
		{&ch.BytesWritten, dataUnitBytes(c.DataUnitsWritten)}, {&ch.BytesRead, dataUnitBytes(c.DataUnitsRead)},
		{&ch.MediaErrors, c.MediaErrors.Uint64}, {&ch.ErrorLogEntries, c.NumErrLogEntries.Uint64},
		{&ch.UnsafeShutdowns, c.UnsafeShutdowns.Uint64},
	} {
		v, ok := f.get()
		*f.dst, fits = v, fits && ok
	}
	if !fits {
		*notes = append(*notes, "a SMART counter moved by more than 2^64 between the readings, which no run can do; the change is left out")
		return nil
	}
	var temps []int
	for _, r := range []*results.HealthReading{before, after} {
		if r.TemperatureC != nil {
			temps = append(temps, *r.TemperatureC)
		}
	}
	if len(temps) > 0 {
		lo, hi := slices.Min(temps), slices.Max(temps)
		ch.TemperatureMinC, ch.TemperatureMaxC = &lo, &hi
	}
	if engine > 0 {
		ratio := float64(ch.BytesWritten) / float64(engine)
		ch.WrittenRatio = &ratio
	}
	return ch
}

// dataUnitBytes is a data-unit count in bytes; false when that exceeds 64
// bits.
func dataUnitBytes(u nvme.Uint128) func() (uint64, bool) {
	return func() (uint64, bool) {
		b := new(big.Int).Mul(u.Big(), big.NewInt(nvme.DataUnitBytes))
		return b.Uint64(), b.IsUint64()
	}
}

// warningNames names the critical warnings raised, with the nvme
// package's names; bits the specification does not define are named by
// number.
func warningNames(w nvme.CriticalWarning) []string {
	names := append([]string{}, w.Names()...)
	for i := nvme.CriticalWarningBits; i < 8; i++ {
		if w&(1<<i) != 0 {
			names = append(names, fmt.Sprintf("bit %d", i))
		}
	}
	return names
}
