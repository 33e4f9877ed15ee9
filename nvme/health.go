package nvme

import (
	"fmt"
	"math/big"
	"time"
)

// HealthSnapshot is what a controller says about itself at one moment:
// who it is, the namespace under test and its SMART/health log. Taken
// before and after a test, two snapshots show what the drive counted
// during it (see DiffSmart). The JSON names are nvme-cli's.
type HealthSnapshot struct {
	// Path is the device the snapshot was read through.
	Path string `json:"path"`
	// Time is when the SMART/health log was read.
	Time time.Time `json:"time"`
	// NSID is the namespace of Path; 0 when Path is a controller.
	NSID     uint32    `json:"nsid,omitempty"`
	IDCtrl   *IDCtrl   `json:"id_ctrl"`
	IDNs     *IDNs     `json:"id_ns,omitempty"` // nil when Path is a controller
	SmartLog *SmartLog `json:"smart_log"`
}

// SmartChange is how the SMART/health log of one controller moved
// between two snapshots. Counters are differences; the log is
// controller-wide, so they include every namespace's traffic.
type SmartChange struct {
	DataUnitsRead     Uint128 `json:"data_units_read"`
	DataUnitsWritten  Uint128 `json:"data_units_written"`
	HostReadCommands  Uint128 `json:"host_read_commands"`
	HostWriteCommands Uint128 `json:"host_write_commands"`
	MediaErrors       Uint128 `json:"media_errors"`
	NumErrLogEntries  Uint128 `json:"num_err_log_entries"`
	UnsafeShutdowns   Uint128 `json:"unsafe_shutdowns"`
	// PercentUsed is the change of the life-used estimate, in points.
	PercentUsed int `json:"percent_used"`
	// NewWarnings are the critical warnings raised after but not before.
	NewWarnings CriticalWarning `json:"new_critical_warnings"`
	// MinTemperature and MaxTemperature span the two composite
	// temperatures.
	MinTemperature Kelvin `json:"min_temperature"`
	MaxTemperature Kelvin `json:"max_temperature"`
}

// DiffSmart returns how the log moved from before to after. It fails when
// a counter went backwards, which means the logs are of different
// controllers or the counters were reset in between.
func DiffSmart(before, after *SmartLog) (*SmartChange, error) {
	c := &SmartChange{
		PercentUsed:    int(after.PercentUsed) - int(before.PercentUsed),
		NewWarnings:    after.CriticalWarning &^ before.CriticalWarning,
		MinTemperature: min(before.Temperature, after.Temperature),
		MaxTemperature: max(before.Temperature, after.Temperature),
	}
	counters := []struct {
		name          string
		dst           *Uint128
		before, after Uint128
	}{
		{"data_units_read", &c.DataUnitsRead, before.DataUnitsRead, after.DataUnitsRead},
		{"data_units_written", &c.DataUnitsWritten, before.DataUnitsWritten, after.DataUnitsWritten},
		{"host_read_commands", &c.HostReadCommands, before.HostReadCommands, after.HostReadCommands},
		{"host_write_commands", &c.HostWriteCommands, before.HostWriteCommands, after.HostWriteCommands},
		{"media_errors", &c.MediaErrors, before.MediaErrors, after.MediaErrors},
		{"num_err_log_entries", &c.NumErrLogEntries, before.NumErrLogEntries, after.NumErrLogEntries},
		{"unsafe_shutdowns", &c.UnsafeShutdowns, before.UnsafeShutdowns, after.UnsafeShutdowns},
	}
	for _, k := range counters {
		diff, ok := k.after.Sub(k.before)
		if !ok {
			return nil, fmt.Errorf("nvme: SMART counter %s went from %v to %v; the logs are of different controllers or the counters were reset",
				k.name, k.before, k.after)
		}
		*k.dst = diff
	}
	return c, nil
}

// BytesRead returns DataUnitsRead in bytes.
func (c *SmartChange) BytesRead() *big.Int { return DataUnitsToBytes(c.DataUnitsRead) }

// BytesWritten returns DataUnitsWritten in bytes. The controller rounds
// each data unit up, so it may exceed what the host wrote by up to one
// unit (512,000 bytes).
func (c *SmartChange) BytesWritten() *big.Int { return DataUnitsToBytes(c.DataUnitsWritten) }
