package reports

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
	"time"
)

// DriveHealth is what an NVMe drive said about itself before and after
// the run: who it is, and its SMART/health log at both moments. The SMART
// log is the controller's, so its counters include whatever else used the
// drive in between.
type DriveHealth struct {
	Drive string `json:"drive"`
	// Path is the device the drive was read through.
	Path     string         `json:"path"`
	Identity *DriveIdentity `json:"identity,omitempty"`
	// Before and After are the two readings; After is absent when the run
	// has not ended or the drive could not be read after it.
	Before *HealthReading `json:"before,omitempty"`
	After  *HealthReading `json:"after,omitempty"`
	// Change is how the readings differ; absent without both.
	Change *HealthChange `json:"change,omitempty"`
	// EngineBytesWritten is what drivebench wrote to the drive between the
	// readings, to set beside the drive's own count.
	EngineBytesWritten uint64 `json:"engine_bytes_written"`
	// Highlight is a few sentences on data written, temperature, errors
	// and warnings, as the Markdown report prints them.
	Highlight string `json:"highlight"`
	// Notes says what went wrong reading the drive or its document.
	Notes []string `json:"notes"`
}

// DriveIdentity is what the controller and namespace identify data say.
type DriveIdentity struct {
	Model       string `json:"model"`
	Serial      string `json:"serial"`
	Firmware    string `json:"firmware"`
	NVMeVersion string `json:"nvme_version"`
	// VendorID is the PCI vendor ID.
	VendorID uint16 `json:"vendor_id"`
	// NSID is the namespace of Path; 0 when Path is a controller.
	NSID uint32 `json:"nsid"`
	// NamespaceBytes is the namespace's size; 0 when unknown.
	NamespaceBytes uint64 `json:"namespace_bytes"`
	// TotalCapacityBytes is the controller's total NVM capacity; absent
	// when the controller does not report it.
	TotalCapacityBytes *uint64 `json:"total_capacity_bytes,omitempty"`
	// LBAFormat is the format the namespace is formatted with; absent
	// without namespace data.
	LBAFormat *LBAFormat `json:"lba_format,omitempty"`
	// LBAFormats counts the formats the namespace supports.
	LBAFormats int `json:"lba_formats"`
	// WarningTempC and CriticalTempC are the composite temperature
	// thresholds in °C; absent when not reported.
	WarningTempC  *int `json:"warning_temp_c,omitempty"`
	CriticalTempC *int `json:"critical_temp_c,omitempty"`
}

// LBAFormat is a namespace's LBA format.
type LBAFormat struct {
	Index         int    `json:"index"`
	DataBytes     uint64 `json:"data_bytes"`
	MetadataBytes int    `json:"metadata_bytes"`
	// RelativePerformance is the controller's ranking: 0 best, 1 better,
	// 2 good, 3 degraded.
	RelativePerformance int `json:"relative_performance"`
}

// HealthReading is one reading of the SMART/health log. The lifetime
// counters are decimal strings, as nvme-cli writes them: they are 128-bit.
type HealthReading struct {
	Time time.Time `json:"time"`
	// TemperatureC is the composite temperature; absent when not reported.
	TemperatureC *int `json:"temperature_c,omitempty"`
	// CriticalWarnings names the critical warnings raised.
	CriticalWarnings  []string `json:"critical_warnings"`
	AvailableSparePct int      `json:"available_spare_pct"`
	SpareThresholdPct int      `json:"spare_threshold_pct"`
	// PercentUsed is the drive's estimate of its life used; may exceed 100.
	PercentUsed      int    `json:"percent_used"`
	DataUnitsRead    string `json:"data_units_read"`
	DataUnitsWritten string `json:"data_units_written"`
	MediaErrors      string `json:"media_errors"`
	ErrorLogEntries  string `json:"error_log_entries"`
	PowerOnHours     string `json:"power_on_hours"`
	UnsafeShutdowns  string `json:"unsafe_shutdowns"`
}

// HealthChange is how the SMART/health log moved between the readings.
type HealthChange struct {
	// TemperatureMinC and TemperatureMaxC span the temperatures of the two
	// readings that report one.
	TemperatureMinC *int `json:"temperature_min_c,omitempty"`
	TemperatureMaxC *int `json:"temperature_max_c,omitempty"`
	// BytesWritten and BytesRead are the data units counted, times
	// 512,000 bytes. The drive rounds up to whole units.
	BytesWritten uint64 `json:"bytes_written"`
	BytesRead    uint64 `json:"bytes_read"`
	// WrittenRatio is BytesWritten / EngineBytesWritten; absent when
	// drivebench wrote nothing.
	WrittenRatio    *float64 `json:"written_ratio,omitempty"`
	MediaErrors     uint64   `json:"media_errors"`
	ErrorLogEntries uint64   `json:"error_log_entries"`
	UnsafeShutdowns uint64   `json:"unsafe_shutdowns"`
	// PercentUsed is the change of the life-used estimate, in points.
	PercentUsed int `json:"percent_used"`
	// NewCriticalWarnings names the warnings raised after but not before.
	NewCriticalWarnings []string `json:"new_critical_warnings"`
}

// SetHealth sets the drives' health from their health documents (the
// results folder's health/<drive>.json, by drive name, as
// results.Folder.Health returns them): the run's drives first, in order,
// then any other by name. A document or part of one this version cannot
// read becomes a note on its drive.
func (s *Summary) SetHealth(docs map[string]json.RawMessage) {
	s.Health = []DriveHealth{}
	var names []string
	for _, d := range s.Drives {
		if _, ok := docs[d.Name]; ok && !slices.Contains(names, d.Name) {
			names = append(names, d.Name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		s.Health = append(s.Health, buildHealth(name, docs[name]))
	}
}

// healthDoc is the layout of a health document as the engine writes it.
// Its snapshots are the nvme package's, with nvme-cli's field names;
// reports reads the fields it shows.
type healthDoc struct {
	Before             *snapshotDoc `json:"before"`
	After              *snapshotDoc `json:"after"`
	Change             *changeDoc   `json:"change"`
	EngineBytesWritten uint64       `json:"engine_bytes_written"`
	Error              string       `json:"error"`
}

type snapshotDoc struct {
	Path     string     `json:"path"`
	Time     time.Time  `json:"time"`
	NSID     uint32     `json:"nsid"`
	IDCtrl   *idCtrlDoc `json:"id_ctrl"`
	IDNs     *idNsDoc   `json:"id_ns"`
	SmartLog *smartDoc  `json:"smart_log"`
}

type idCtrlDoc struct {
	VID     uint16  `json:"vid"`
	SN      string  `json:"sn"`
	MN      string  `json:"mn"`
	FR      string  `json:"fr"`
	Version string  `json:"version"`
	WCTemp  uint16  `json:"wctemp"`
	CCTemp  uint16  `json:"cctemp"`
	TNVMCap counter `json:"tnvmcap"`
}

type idNsDoc struct {
	LBAFormats    []lbafDoc `json:"lbafs"`
	FormatInUse   int       `json:"lbaf_in_use"`
	BlockSize     uint64    `json:"block_size"`
	CapacityBytes uint64    `json:"capacity_bytes"`
}

type lbafDoc struct {
	MS uint16 `json:"ms"`
	DS uint8  `json:"ds"`
	RP uint8  `json:"rp"`
}

type smartDoc struct {
	CriticalWarning  uint8   `json:"critical_warning"`
	Temperature      uint16  `json:"temperature"`
	AvailSpare       uint8   `json:"avail_spare"`
	SpareThresh      uint8   `json:"spare_thresh"`
	PercentUsed      uint8   `json:"percent_used"`
	DataUnitsRead    counter `json:"data_units_read"`
	DataUnitsWritten counter `json:"data_units_written"`
	PowerOnHours     counter `json:"power_on_hours"`
	UnsafeShutdowns  counter `json:"unsafe_shutdowns"`
	MediaErrors      counter `json:"media_errors"`
	NumErrLogEntries counter `json:"num_err_log_entries"`
}

type changeDoc struct {
	DataUnitsRead    counter `json:"data_units_read"`
	DataUnitsWritten counter `json:"data_units_written"`
	MediaErrors      counter `json:"media_errors"`
	NumErrLogEntries counter `json:"num_err_log_entries"`
	UnsafeShutdowns  counter `json:"unsafe_shutdowns"`
	PercentUsed      int     `json:"percent_used"`
	NewWarnings      uint8   `json:"new_critical_warnings"`
}

// counter is a 128-bit SMART counter: a decimal string, as nvme-cli
// writes it, or a plain JSON number.
type counter struct{ n big.Int }

// UnmarshalJSON reads a decimal string or a number of at most 128 bits.
func (c *counter) UnmarshalJSON(data []byte) error {
	text := strings.Trim(string(data), `"`)
	if _, ok := c.n.SetString(text, 10); !ok || c.n.Sign() < 0 || c.n.BitLen() > 128 {
		return fmt.Errorf("%s is not an unsigned 128-bit decimal number", data)
	}
	return nil
}

// String writes the counter in decimal.
func (c *counter) String() string { return c.n.String() }

// dataUnitBytes is the size of a SMART data unit: 1,000 blocks of 512
// bytes, whatever the drive's block size.
const dataUnitBytes = 512_000

// bytes is a data-unit count in bytes; false when that exceeds 64 bits.
func (c *counter) bytes() (uint64, bool) {
	var b big.Int
	b.Mul(&c.n, big.NewInt(dataUnitBytes))
	return b.Uint64(), b.IsUint64()
}

// count is the counter as a number; false when it exceeds 64 bits.
func (c *counter) count() (uint64, bool) { return c.n.Uint64(), c.n.IsUint64() }

// buildHealth reads one drive's health document.
func buildHealth(drive string, data json.RawMessage) DriveHealth {
	h := DriveHealth{Drive: drive, Notes: []string{}}
	var doc healthDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		h.Notes = append(h.Notes, fmt.Sprintf("health/%s.json cannot be read: %v", drive, err))
		h.Highlight = "The drive's health document could not be read."
		return h
	}
	if doc.Error != "" {
		h.Notes = append(h.Notes, doc.Error)
	}
	h.EngineBytesWritten = doc.EngineBytesWritten
	if first := firstSnapshot(doc.Before, doc.After); first != nil {
		h.Path = first.Path
		h.Identity = identity(first)
	}
	h.Before, h.After = reading(doc.Before), reading(doc.After)
	if h.Before != nil && h.After != nil && doc.Change != nil {
		h.Change = change(doc.Change, h.Before, h.After, h.EngineBytesWritten, &h.Notes)
	}
	h.Highlight = healthSentences(h)
	return h
}

// firstSnapshot is the first of two snapshots that is present.
func firstSnapshot(a, b *snapshotDoc) *snapshotDoc {
	if a != nil {
		return a
	}
	return b
}

// identity is what a snapshot's identify data say; nil without any.
func identity(s *snapshotDoc) *DriveIdentity {
	c, ns := s.IDCtrl, s.IDNs
	if c == nil && ns == nil {
		return nil
	}
	id := &DriveIdentity{NSID: s.NSID}
	if c != nil {
		id.Model, id.Serial, id.Firmware = c.MN, c.SN, c.FR
		id.NVMeVersion, id.VendorID = c.Version, c.VID
		id.WarningTempC, id.CriticalTempC = celsius(c.WCTemp), celsius(c.CCTemp)
		if n, ok := c.TNVMCap.count(); ok && n > 0 {
			id.TotalCapacityBytes = &n
		}
	}
	if ns != nil {
		id.NamespaceBytes = ns.CapacityBytes
		id.LBAFormats = len(ns.LBAFormats)
		if i := ns.FormatInUse; i >= 0 && i < len(ns.LBAFormats) {
			f := ns.LBAFormats[i]
			id.LBAFormat = &LBAFormat{Index: i, DataBytes: ns.BlockSize, MetadataBytes: int(f.MS), RelativePerformance: int(f.RP & 3)}
			if id.LBAFormat.DataBytes == 0 && f.DS >= 9 && f.DS < 64 {
				id.LBAFormat.DataBytes = 1 << f.DS
			}
		}
	}
	return id
}

// kelvinOffset turns NVMe's whole Kelvin into whole degrees Celsius, as
// the specification and nvme-cli do.
const kelvinOffset = 273

// celsius is a temperature in °C; nil for 0 K, which means not reported.
func celsius(kelvin uint16) *int {
	if kelvin == 0 {
		return nil
	}
	c := int(kelvin) - kelvinOffset
	return &c
}

// reading is a snapshot's SMART/health log; nil without one.
func reading(s *snapshotDoc) *HealthReading {
	if s == nil || s.SmartLog == nil {
		return nil
	}
	l := s.SmartLog
	return &HealthReading{
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

// change is the change the document records, with the temperatures of
// the readings and the drive's count of writes beside the engine's. A
// counter that moved by more than 64 bits can only be a broken reading:
// the change is then left out with a note.
func change(c *changeDoc, before, after *HealthReading, engine uint64, notes *[]string) *HealthChange {
	ch := &HealthChange{PercentUsed: c.PercentUsed, NewCriticalWarnings: warningNames(c.NewWarnings)}
	fits := true
	for _, f := range []struct {
		dst *uint64
		get func() (uint64, bool)
	}{
		{&ch.BytesWritten, c.DataUnitsWritten.bytes}, {&ch.BytesRead, c.DataUnitsRead.bytes},
		{&ch.MediaErrors, c.MediaErrors.count}, {&ch.ErrorLogEntries, c.NumErrLogEntries.count},
		{&ch.UnsafeShutdowns, c.UnsafeShutdowns.count},
	} {
		v, ok := f.get()
		*f.dst, fits = v, fits && ok
	}
	if !fits {
		*notes = append(*notes, "a SMART counter moved by more than 2^64 between the readings, which no run can do; the change is left out")
		return nil
	}
	var temps []int
	for _, r := range []*HealthReading{before, after} {
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

// criticalWarnings names the bits of the SMART critical_warning byte, as
// the NVMe specification defines them, with what each means for people.
var criticalWarnings = []struct{ name, meaning string }{
	{"spare", "available spare below its threshold"},
	{"temperature", "temperature outside its thresholds"},
	{"reliability", "reliability degraded by media or internal errors"},
	{"read-only", "media placed in read-only mode"},
	{"volatile-backup", "volatile memory backup failed"},
	{"pmr-read-only", "persistent memory region read-only"},
}

// warningNames names the warnings raised in a critical_warning byte; bits
// the specification does not define are named by number.
func warningNames(bits uint8) []string {
	names := []string{}
	for i := range 8 {
		if bits&(1<<i) == 0 {
			continue
		}
		if i < len(criticalWarnings) {
			names = append(names, criticalWarnings[i].name)
		} else {
			names = append(names, fmt.Sprintf("bit %d", i))
		}
	}
	return names
}

// warningMeaning says what a named warning means.
func warningMeaning(name string) string {
	for _, w := range criticalWarnings {
		if w.name == name {
			return w.meaning
		}
	}
	return "warning " + name
}
