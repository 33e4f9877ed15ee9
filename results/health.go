package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// HealthDir holds one file per drive with what the drive said about
// itself (NVMe identity and SMART/health log) before and after the run;
// HealthSchema is the files' schema.
const (
	HealthDir    = "health"
	HealthSchema = "drivebench/health/v1"
)

// Health is what an NVMe drive said about itself before and after the
// run, stored as health/<drive>.json. The engine reads the device and
// fills it once; reports and hooks read it from here. The SMART log is
// the controller's, so its counters include whatever else used the drive
// in between.
type Health struct {
	Schema string `json:"schema"`
	Drive  string `json:"drive"`
	// Path is the device the drive was read through.
	Path     string        `json:"path"`
	Identity *NVMeIdentity `json:"identity,omitempty"`
	// Before and After are the two readings; After is absent when the run
	// has not ended or the drive could not be read after it.
	Before *HealthReading `json:"before,omitempty"`
	After  *HealthReading `json:"after,omitempty"`
	// Change is how the readings differ; absent without both.
	Change *HealthChange `json:"change,omitempty"`
	// EngineBytesWritten is what drivebench wrote to the drive between the
	// readings, to set beside the drive's own count.
	EngineBytesWritten uint64 `json:"engine_bytes_written"`
	// WriteCache is set when the plan switched the volatile write cache.
	WriteCache *WriteCache `json:"volatile_write_cache,omitempty"`
	// Notes say what went wrong reading the drive.
	Notes []string `json:"notes,omitempty"`
}

// WriteCache is what a run did to a drive's volatile write cache.
type WriteCache struct {
	// Found is the state before the run, Set the state during it.
	Found bool `json:"found_enabled"`
	Set   bool `json:"set_enabled"`
	// Restored is true once the found state is back.
	Restored bool   `json:"restored"`
	Error    string `json:"restore_error,omitempty"`
}

// NVMeIdentity is what the controller and namespace identify data say.
type NVMeIdentity struct {
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
	// CriticalWarnings names the critical warnings raised, with the nvme
	// package's names.
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

// DataUnitBytes is the size of a SMART data unit: 1,000 blocks of 512
// bytes, whatever the drive's block size.
const DataUnitBytes = 512_000

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

// WriteHealth stores the health of a drive atomically.
func (f *Folder) WriteHealth(h *Health) error {
	if err := os.MkdirAll(filepath.Join(f.Dir, HealthDir), 0o755); err != nil {
		return err
	}
	h.Schema = HealthSchema
	return WriteJSONAtomic(filepath.Join(f.Dir, HealthDir, h.Drive+".json"), h)
}

// Health returns the stored health of each drive, by drive name. A file
// that cannot be read is an error naming it.
func (f *Folder) Health() (map[string]*Health, error) {
	entries, err := os.ReadDir(filepath.Join(f.Dir, HealthDir))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]*Health{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]*Health{}
	for _, e := range entries {
		drive, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || strings.HasPrefix(drive, ".") {
			continue
		}
		h, err := readHealth(filepath.Join(f.Dir, HealthDir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(HealthDir, e.Name()), err)
		}
		h.Drive = drive
		out[drive] = h
	}
	return out, nil
}

func readHealth(path string) (*Health, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var h Health
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("not a health document: %w", err)
	}
	if err := checkSchema(h.Schema, HealthSchema); err != nil {
		return nil, err
	}
	return &h, nil
}
