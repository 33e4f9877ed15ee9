package nvme

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/nvmecli"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// readFixture returns a file from testdata.
func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeJSONObject parses JSON keeping numbers as written.
func decodeJSONObject(t *testing.T, data []byte) map[string]any {
	t.Helper()
	m, err := nvmecli.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// asJSONObject marshals v and parses it back as a generic object.
func asJSONObject(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return decodeJSONObject(t, b)
}

// compareWithNvmeCli checks our JSON against nvme-cli's for the same
// page field for field: every value nvme-cli prints, at any depth, must
// be in ours under the same name with the same value (strings with
// nvme-cli's padding).
func compareWithNvmeCli(t *testing.T, ours any, cliFixture string) {
	t.Helper()
	diffs, n := nvmecli.Diff("", decodeJSONObject(t, readFixture(t, cliFixture)), asJSONObject(t, ours))
	for _, d := range diffs {
		t.Errorf("%s: %s", cliFixture, d)
	}
	t.Logf("%s: %d of nvme-cli's values compared", cliFixture, n)
}

// checkGolden compares v's indented JSON with testdata/name, rewriting it
// with -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("decoded JSON differs from %s (run go test -update if the change is intended):\n%s", path, got)
	}
}

func TestDecodeIDCtrlMatchesNvmeCli(t *testing.T) {
	c, err := DecodeIDCtrl(readFixture(t, "qemu-nvme-id-ctrl.bin"))
	if err != nil {
		t.Fatal(err)
	}
	compareWithNvmeCli(t, c, "qemu-nvme-id-ctrl.json")
	checks := []struct {
		name      string
		got, want any
	}{
		{"sn", c.SN, "deadbeef"},
		{"mn", c.MN, "QEMU NVMe Ctrl"},
		{"fr", c.FR, "7.2.22"},
		{"version", c.Version, "1.4"},
		{"oacs", c.OACS.String(), "format,ns-mgmt,doorbell-buffer"},
		{"oacs format", c.OACS.Has(OACSFormat), true},
		{"oacs firmware", c.OACS.Has(OACSFirmware), false},
		{"oncs", c.ONCS.String(), "compare,dsm,write-zeroes,save-select,timestamp,copy"},
		{"wctemp", c.WCTEMP.Celsius(), 70},
		{"max power", c.PowerStates[0].MaxPowerWatts(), 25.0},
		{"firmware slots", c.FirmwareSlots(), 1},
		{"volatile write cache", c.VolatileWriteCache(), true},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	checkGolden(t, "qemu-nvme-id-ctrl.golden.json", c)
}

func TestDecodeIDNsMatchesNvmeCli(t *testing.T) {
	ns, err := DecodeIDNs(readFixture(t, "qemu-nvme-id-ns.bin"))
	if err != nil {
		t.Fatal(err)
	}
	compareWithNvmeCli(t, ns, "qemu-nvme-id-ns.json")
	// nvme list on the same controller: 2097152 blocks of 512 bytes.
	if ns.BlockSize != 512 || ns.CapacityBytes != 1073741824 || ns.UsedBytes != 1073741824 {
		t.Errorf("block size %d, capacity %d, used %d; want 512, 1073741824, 1073741824",
			ns.BlockSize, ns.CapacityBytes, ns.UsedBytes)
	}
	if len(ns.LBAFormats) != 8 || ns.LBAFormats[4].DataSize() != 4096 || ns.LBAFormats[3].MS != 64 {
		t.Errorf("LBA formats %+v; want 8 with format 4 of 4096 bytes and format 3 with 64 metadata bytes", ns.LBAFormats)
	}
	checkGolden(t, "qemu-nvme-id-ns.golden.json", ns)
}

func TestDecodeSmartLogMatchesNvmeCli(t *testing.T) {
	s, err := DecodeSmartLog(readFixture(t, "qemu-nvme-smart-log.bin"))
	if err != nil {
		t.Fatal(err)
	}
	compareWithNvmeCli(t, s, "qemu-nvme-smart-log.json")
	if s.Temperature.Celsius() != 50 || s.HostReadCommands.String() != "2" {
		t.Errorf("temperature %v, host reads %v; want 50 °C and 2", s.Temperature, s.HostReadCommands)
	}
	if got := s.BytesRead().String(); got != "512000" {
		t.Errorf("BytesRead = %s, want 512000 (1 data unit)", got)
	}
	checkGolden(t, "qemu-nvme-smart-log.golden.json", s)
}

// patterned returns n bytes where byte i is i mod 251, so every
// little-endian field has a value that depends on its offset.
func patterned(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// leAt reads a little-endian field of width bytes (at most 8) at off.
func leAt(b []byte, off, width int) uint64 {
	var v uint64
	for i := width - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[off+i])
	}
	return v
}

func u128At(b []byte, off int) Uint128 {
	return Uint128{Lo: leAt(b, off, 8), Hi: leAt(b, off+8, 8)}
}

// TestDecodeSmartLogOffsets checks every field against the offsets of the
// NVMe base specification (figure "SMART / Health Information Log").
func TestDecodeSmartLogOffsets(t *testing.T) {
	b := patterned(SmartLogSize)
	s, err := DecodeSmartLog(b)
	if err != nil {
		t.Fatal(err)
	}
	fields := []struct {
		name       string
		got        uint64
		off, width int
	}{
		{"critical_warning", uint64(s.CriticalWarning), 0, 1},
		{"temperature", uint64(s.Temperature), 1, 2},
		{"avail_spare", uint64(s.AvailSpare), 3, 1},
		{"spare_thresh", uint64(s.SpareThresh), 4, 1},
		{"percent_used", uint64(s.PercentUsed), 5, 1},
		{"endurance group warning", uint64(s.EnduranceGroupWarning), 6, 1},
		{"warning_temp_time", uint64(s.WarningTempTime), 192, 4},
		{"critical_comp_time", uint64(s.CriticalCompTime), 196, 4},
		{"sensor 1", uint64(s.TempSensors[0]), 200, 2},
		{"sensor 8", uint64(s.TempSensors[7]), 214, 2},
		{"thm_temp1_trans_count", uint64(s.ThermalMgmtTemp1TransCount), 216, 4},
		{"thm_temp2_trans_count", uint64(s.ThermalMgmtTemp2TransCount), 220, 4},
		{"thm_temp1_total_time", uint64(s.ThermalMgmtTemp1TotalTime), 224, 4},
		{"thm_temp2_total_time", uint64(s.ThermalMgmtTemp2TotalTime), 228, 4},
	}
	for _, f := range fields {
		if want := leAt(b, f.off, f.width); f.got != want {
			t.Errorf("%s = %#x, want %#x (offset %d)", f.name, f.got, want, f.off)
		}
	}
	counters := []struct {
		name string
		got  Uint128
		off  int
	}{
		{"data_units_read", s.DataUnitsRead, 32}, {"data_units_written", s.DataUnitsWritten, 48},
		{"host_read_commands", s.HostReadCommands, 64}, {"host_write_commands", s.HostWriteCommands, 80},
		{"controller_busy_time", s.ControllerBusyTime, 96}, {"power_cycles", s.PowerCycles, 112},
		{"power_on_hours", s.PowerOnHours, 128}, {"unsafe_shutdowns", s.UnsafeShutdowns, 144},
		{"media_errors", s.MediaErrors, 160}, {"num_err_log_entries", s.NumErrLogEntries, 176},
	}
	for _, c := range counters {
		if want := u128At(b, c.off); c.got != want {
			t.Errorf("%s = %v, want %v (offset %d)", c.name, c.got, want, c.off)
		}
	}
}

// TestDecodeIDCtrlOffsets checks the fields the QEMU page leaves at zero.
func TestDecodeIDCtrlOffsets(t *testing.T) {
	b := patterned(IDCtrlSize)
	b[263] = 2 // NPSS: three power states
	c, err := DecodeIDCtrl(b)
	if err != nil {
		t.Fatal(err)
	}
	fields := []struct {
		name       string
		got        uint64
		off, width int
	}{
		{"ieee", uint64(c.IEEE), 73, 3}, {"cmic", uint64(c.CMIC), 76, 1}, {"cntlid", uint64(c.CNTLID), 78, 2},
		{"rtd3e", uint64(c.RTD3E), 88, 4}, {"apsta", uint64(c.APSTA), 265, 1}, {"mtfa", uint64(c.MTFA), 270, 2},
		{"hmmin", uint64(c.HMMIN), 276, 4}, {"edstt", uint64(c.EDSTT), 316, 2}, {"kas", uint64(c.KAS), 320, 2},
		{"mxtmt", uint64(c.MXTMT), 326, 2}, {"sanicap", uint64(c.SANICAP), 328, 4},
		{"maxcmd", uint64(c.MAXCMD), 514, 2}, {"fna", uint64(c.FNA), 524, 1}, {"awupf", uint64(c.AWUPF), 528, 2},
		{"nwpc", uint64(c.NWPC), 531, 1}, {"acwu", uint64(c.ACWU), 532, 2}, {"mnan", uint64(c.MNAN), 540, 4},
		{"psd2 max_power", uint64(c.PowerStates[2].MaxPower), 2048 + 64, 2},
		{"psd2 exit_lat", uint64(c.PowerStates[2].ExitLat), 2048 + 64 + 8, 4},
		{"psd2 active_power", uint64(c.PowerStates[2].ActivePower), 2048 + 64 + 20, 2},
	}
	for _, f := range fields {
		if want := leAt(b, f.off, f.width); f.got != want {
			t.Errorf("%s = %#x, want %#x (offset %d)", f.name, f.got, want, f.off)
		}
	}
	if want := u128At(b, 280); c.TNVMCAP != want {
		t.Errorf("tnvmcap = %v, want %v", c.TNVMCAP, want)
	}
	if len(c.PowerStates) != 3 {
		t.Errorf("%d power states, want NPSS+1 = 3", len(c.PowerStates))
	}
}

func TestDecodeIDCtrlPowerStatesCapped(t *testing.T) {
	b := make([]byte, IDCtrlSize)
	b[263] = 255 // NPSS beyond the 32 descriptors the page has room for
	c, err := DecodeIDCtrl(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.PowerStates) != 32 {
		t.Errorf("%d power states, want 32", len(c.PowerStates))
	}
}

func TestVersionString(t *testing.T) {
	for ver, want := range map[uint32]string{0: "", 0x00010400: "1.4", 0x00020000: "2.0", 0x00010301: "1.3.1"} {
		if got := versionString(ver); got != want {
			t.Errorf("versionString(%#x) = %q, want %q", ver, got, want)
		}
	}
}

func TestDecodeIDNsFormats(t *testing.T) {
	tests := []struct {
		name          string
		nlbaf, flbas  uint8
		nsze          uint64
		wantInUse     int
		wantBlockSize uint64
		wantErr       string
	}{
		{name: "format 0", nlbaf: 1, flbas: 0x00, nsze: 100, wantInUse: 0, wantBlockSize: 512},
		{name: "format 1 with metadata at end", nlbaf: 1, flbas: 0x11, nsze: 100, wantInUse: 1, wantBlockSize: 4096},
		{name: "upper index bits", nlbaf: 20, flbas: 0x21, nsze: 1, wantInUse: 17, wantBlockSize: 4096},
		{name: "flbas beyond nlbaf", nlbaf: 1, flbas: 0x02, wantErr: "selects LBA format 2 but nlbaf lists only 2"},
		{name: "too many formats", nlbaf: 64, wantErr: "more than 64 LBA formats"},
		{name: "capacity overflow", nlbaf: 1, flbas: 1, nsze: 1 << 60, wantErr: "overflows 64 bits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := make([]byte, IDNsSize)
			b[25], b[26] = tt.nlbaf, tt.flbas
			putLE(b[0:8], tt.nsze)
			for i := 0; i < 64; i++ {
				ds := byte(9)
				if i%2 == 1 {
					ds = 12
				}
				b[128+4*i+2] = ds
			}
			ns, err := DecodeIDNs(b)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ns.FormatInUse != tt.wantInUse || ns.BlockSize != tt.wantBlockSize || ns.CapacityBytes != tt.nsze*tt.wantBlockSize {
				t.Errorf("in use %d, block size %d, capacity %d; want %d, %d, %d", ns.FormatInUse, ns.BlockSize,
					ns.CapacityBytes, tt.wantInUse, tt.wantBlockSize, tt.nsze*tt.wantBlockSize)
			}
		})
	}
}

func putLE(b []byte, v uint64) {
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
}

func TestDecodeErrorLog(t *testing.T) {
	b := make([]byte, 3*ErrorLogEntrySize)
	e := b[:64]
	putLE(e[0:8], 7)             // error count
	putLE(e[8:10], 1)            // sqid
	putLE(e[10:12], 0x1234)      // cmdid
	putLE(e[12:14], 0x4002<<1|1) // status: DNR, invalid field; phase tag 1
	putLE(e[14:16], 0x28)        // parameter error location
	putLE(e[16:24], 123456789)   // lba
	putLE(e[24:28], 1)           // nsid
	putLE(e[32:40], 0xabcdef)    // command specific
	putLE(b[128:136], 5)         // third entry; the second is empty
	entries, err := DecodeErrorLog(b)
	if err != nil {
		t.Fatal(err)
	}
	want := ErrorLogEntry{ErrorCount: 7, SQID: 1, CMDID: 0x1234, StatusField: 0x4002, PhaseTag: 1,
		ParmErrLoc: 0x28, LBA: 123456789, NSID: 1, CS: 0xabcdef}
	if len(entries) != 2 || entries[0] != want || entries[1].ErrorCount != 5 {
		t.Fatalf("entries = %+v, want [%+v, {ErrorCount:5}]", entries, want)
	}
	if got := entries[0].StatusField.String(); got != "0x4002 (invalid field in command)" {
		t.Errorf("status = %q", got)
	}
	if !entries[0].StatusField.DNR() {
		t.Error("DNR not set")
	}
}

func TestDecodeFwSlotLog(t *testing.T) {
	b := make([]byte, FwSlotLogSize)
	b[0] = 0x32 // active slot 2, slot 3 at next reset
	copy(b[8:], "1.0.0   ")
	copy(b[16:], "2.1.7   ")
	log, err := DecodeFwSlotLog(b)
	if err != nil {
		t.Fatal(err)
	}
	if log.ActiveSlot != 2 || log.NextResetSlot != 3 || log.ActiveRevision() != "2.1.7" || log.Slots[0] != "1.0.0" || log.Slots[2] != "" {
		t.Errorf("log = %+v", log)
	}
}

func TestDecodeSanitizeLog(t *testing.T) {
	b := make([]byte, SanitizeLogSize)
	putLE(b[0:2], 0x4000)      // 25 %
	putLE(b[2:4], 2|3<<3|1<<8) // in progress, 3 passes, global data erased
	putLE(b[4:8], 0x203)       // overwrite, no-deallocate
	putLE(b[8:12], NoEstimate) // ETO
	putLE(b[12:16], 90)        // ETBE
	putLE(b[28:32], 5)         // ETCEND
	log, err := DecodeSanitizeLog(b)
	if err != nil {
		t.Fatal(err)
	}
	if log.Status() != SanitizeInProgress || log.Progress() != 0.25 || log.OverwritePasses() != 3 || !log.GlobalDataErased() || log.SCDW != 0x203 {
		t.Errorf("log = %+v: status %v, progress %v, passes %d", log, log.Status(), log.Progress(), log.OverwritePasses())
	}
	if _, ok := log.Estimate(SanitizeOverwrite, false); ok {
		t.Error("overwrite estimate reported, want none")
	}
	if d, ok := log.Estimate(SanitizeBlockErase, false); !ok || d.Seconds() != 90 {
		t.Errorf("block erase estimate = %v, %v; want 90s", d, ok)
	}
	if d, ok := log.Estimate(SanitizeCryptoErase, true); !ok || d.Seconds() != 5 {
		t.Errorf("crypto erase no-dealloc estimate = %v, %v; want 5s", d, ok)
	}
}

func TestTruncatedPagesNameTheLength(t *testing.T) {
	decoders := []struct {
		name   string
		want   int
		decode func([]byte) error
	}{
		{"identify controller", IDCtrlSize, func(b []byte) error { _, err := DecodeIDCtrl(b); return err }},
		{"identify namespace", IDNsSize, func(b []byte) error { _, err := DecodeIDNs(b); return err }},
		{"SMART", SmartLogSize, func(b []byte) error { _, err := DecodeSmartLog(b); return err }},
		{"error log", ErrorLogEntrySize, func(b []byte) error { _, err := DecodeErrorLog(b); return err }},
		{"firmware slot", FwSlotLogSize, func(b []byte) error { _, err := DecodeFwSlotLog(b); return err }},
		{"sanitize", SanitizeLogSize, func(b []byte) error { _, err := DecodeSanitizeLog(b); return err }},
	}
	for _, d := range decoders {
		err := d.decode(make([]byte, d.want-1))
		var short *ShortPageError
		if !errors.As(err, &short) || short.Want != d.want || short.Got != d.want-1 {
			t.Errorf("%s: err = %v, want a ShortPageError for %d of %d bytes", d.name, err, d.want-1, d.want)
			continue
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("want %d", d.want)) {
			t.Errorf("%s: %q does not name the expected length", d.name, err)
		}
	}
	if _, err := DecodeErrorLog(make([]byte, 100)); err == nil || !strings.Contains(err.Error(), "64-byte entries") {
		t.Errorf("error log of 100 bytes: err = %v", err)
	}
}

func TestUint128(t *testing.T) {
	tests := []struct {
		v    Uint128
		want string
	}{
		{Uint128{}, "0"},
		{Uint128From(123), "123"},
		{Uint128{Lo: 0, Hi: 1}, "18446744073709551616"},
		{Uint128{Lo: ^uint64(0), Hi: ^uint64(0)}, "340282366920938463463374607431768211455"},
	}
	for _, tt := range tests {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("String(%+v) = %s, want %s", tt.v, got, tt.want)
		}
		if got := tt.v.Big().String(); got != tt.want {
			t.Errorf("Big(%+v) = %s, want %s", tt.v, got, tt.want)
		}
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != `"`+tt.want+`"` {
			t.Errorf("MarshalJSON(%+v) = %s, %v", tt.v, b, err)
		}
		var back Uint128
		if err := json.Unmarshal(b, &back); err != nil || back != tt.v {
			t.Errorf("UnmarshalJSON(%s) = %+v, %v", b, back, err)
		}
	}
	if f := (Uint128{Hi: 1}).Float64(); f != 18446744073709551616.0 {
		t.Errorf("Float64 = %v", f)
	}
	var u Uint128
	for _, bad := range []string{`"-1"`, `"abc"`, `"340282366920938463463374607431768211456"`} {
		if err := json.Unmarshal([]byte(bad), &u); err == nil {
			t.Errorf("UnmarshalJSON(%s) accepted", bad)
		}
	}
	if err := json.Unmarshal([]byte(`42`), &u); err != nil || u != Uint128From(42) {
		t.Errorf("UnmarshalJSON(42) = %+v, %v", u, err)
	}
	if got := DataUnitsToBytes(Uint128From(3)).String(); got != "1536000" {
		t.Errorf("DataUnitsToBytes(3) = %s", got)
	}
}

func TestFlagNames(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{AdminCommands(0).String(), "none"},
		{(OACSFormat | OACSFirmware | OACSNamespaceMgmt).String(), "format,firmware,ns-mgmt"},
		{(SanicapCrypto | SanicapOverwrite | SanicapNoDeallocInhibited).String(), "crypto,overwrite,ndi"},
		{(WarnSpareLow | WarnReadOnly).String(), "spare,read-only"},
		{(FNACryptoErase).String(), "crypto-erase"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	caps := SanicapBlock
	if !caps.Supports(SanitizeBlockErase) || caps.Supports(SanitizeCryptoErase) || !caps.Supports(SanitizeExitFailureMode) {
		t.Errorf("SanitizeCaps(%v).Supports wrong", caps)
	}
	if !reflect.DeepEqual(CriticalWarning(0).Names(), []string(nil)) {
		t.Error("no warnings should list no names")
	}
}
