package nvme

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
)

// Kelvin is a temperature as NVMe reports it, in whole Kelvin. Zero means
// the sensor or threshold is not reported.
type Kelvin uint16

// Celsius returns the temperature in degrees Celsius.
func (k Kelvin) Celsius() int { return int(k) - 273 }

// String gives the temperature in degrees Celsius.
func (k Kelvin) String() string {
	if k == 0 {
		return "not reported"
	}
	return fmt.Sprintf("%d °C", k.Celsius())
}

// SmartLog is the SMART / Health Information log page (LID 02h). Counters
// are cumulative over the controller's life; JSON tags follow nvme-cli.
type SmartLog struct {
	CriticalWarning CriticalWarning `json:"critical_warning"`
	// Temperature is the composite temperature.
	Temperature Kelvin `json:"temperature"`
	AvailSpare  uint8  `json:"avail_spare"`  // remaining spare capacity, percent
	SpareThresh uint8  `json:"spare_thresh"` // spare threshold for a warning, percent
	PercentUsed uint8  `json:"percent_used"` // estimate of life used, percent; may exceed 100
	// EnduranceGroupWarning summarises the critical warnings of the
	// endurance groups (bit 0 spare, bit 2 reliability, bit 3 read-only).
	EnduranceGroupWarning uint8 `json:"endurance_grp_critical_warning_summary"`

	DataUnitsRead      Uint128 `json:"data_units_read"`    // in DataUnitBytes units
	DataUnitsWritten   Uint128 `json:"data_units_written"` // in DataUnitBytes units
	HostReadCommands   Uint128 `json:"host_read_commands"`
	HostWriteCommands  Uint128 `json:"host_write_commands"`
	ControllerBusyTime Uint128 `json:"controller_busy_time"` // minutes
	PowerCycles        Uint128 `json:"power_cycles"`
	PowerOnHours       Uint128 `json:"power_on_hours"`
	UnsafeShutdowns    Uint128 `json:"unsafe_shutdowns"`
	MediaErrors        Uint128 `json:"media_errors"`
	NumErrLogEntries   Uint128 `json:"num_err_log_entries"`

	WarningTempTime  uint32 `json:"warning_temp_time"`  // minutes above WCTEMP
	CriticalCompTime uint32 `json:"critical_comp_time"` // minutes above CCTEMP

	// TempSensors are temperature sensors 1-8; zero means not present.
	TempSensors [8]Kelvin `json:"temperature_sensors"`

	// Thermal management: how often and how long (seconds) the controller
	// throttled at the first and second thermal management temperature.
	ThermalMgmtTemp1TransCount uint32 `json:"thm_temp1_trans_count"`
	ThermalMgmtTemp2TransCount uint32 `json:"thm_temp2_trans_count"`
	ThermalMgmtTemp1TotalTime  uint32 `json:"thm_temp1_total_time"`
	ThermalMgmtTemp2TotalTime  uint32 `json:"thm_temp2_total_time"`
}

// DecodeSmartLog decodes a SMART / Health Information log page (512 bytes).
func DecodeSmartLog(b []byte) (*SmartLog, error) {
	p, err := newPage("SMART/health log", b, SmartLogSize)
	if err != nil {
		return nil, err
	}
	s := &SmartLog{
		CriticalWarning: CriticalWarning(p.u8(0)), Temperature: Kelvin(p.u16(1)),
		AvailSpare: p.u8(3), SpareThresh: p.u8(4), PercentUsed: p.u8(5), EnduranceGroupWarning: p.u8(6),
		WarningTempTime: p.u32(192), CriticalCompTime: p.u32(196),
		ThermalMgmtTemp1TransCount: p.u32(216), ThermalMgmtTemp2TransCount: p.u32(220),
		ThermalMgmtTemp1TotalTime: p.u32(224), ThermalMgmtTemp2TotalTime: p.u32(228),
	}
	decodeSmartCounters(p, s)
	for i := range s.TempSensors {
		s.TempSensors[i] = Kelvin(p.u16(200 + 2*i))
	}
	return s, nil
}

// decodeSmartCounters reads the ten 128-bit counters at bytes 32-191.
func decodeSmartCounters(p page, s *SmartLog) {
	counters := []*Uint128{
		&s.DataUnitsRead, &s.DataUnitsWritten, &s.HostReadCommands, &s.HostWriteCommands,
		&s.ControllerBusyTime, &s.PowerCycles, &s.PowerOnHours, &s.UnsafeShutdowns,
		&s.MediaErrors, &s.NumErrLogEntries,
	}
	for i, c := range counters {
		*c = p.u128(32 + 16*i)
	}
}

// BytesRead returns DataUnitsRead in bytes.
func (s *SmartLog) BytesRead() *big.Int { return DataUnitsToBytes(s.DataUnitsRead) }

// BytesWritten returns DataUnitsWritten in bytes.
func (s *SmartLog) BytesWritten() *big.Int { return DataUnitsToBytes(s.DataUnitsWritten) }

// MarshalJSON writes the log with nvme-cli's names: beside the list of
// sensors, each sensor that reports a temperature as
// temperature_sensor_N (1-based, Kelvin), the keys nvme-cli prints.
func (s *SmartLog) MarshalJSON() ([]byte, error) {
	type plain SmartLog
	b, err := json.Marshal((*plain)(s))
	if err != nil {
		return nil, err
	}
	var extra bytes.Buffer
	for i, k := range s.TempSensors {
		if k != 0 {
			fmt.Fprintf(&extra, `,"temperature_sensor_%d":%d`, i+1, uint16(k))
		}
	}
	if extra.Len() == 0 {
		return b, nil
	}
	return append(append(b[:len(b)-1], extra.Bytes()...), '}'), nil
}
