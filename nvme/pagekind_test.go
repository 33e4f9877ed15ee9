package nvme

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPageKindChecks: each saved page passes its own kind's check and
// fails the others' of the same size.
func TestPageKindChecks(t *testing.T) {
	fw := make([]byte, FwSlotLogSize)
	fw[0] = 1
	copy(fw[8:], "7.2.22  ")
	pages := map[string][]byte{
		"id-ctrl":   readFixture(t, "qemu-nvme-id-ctrl.bin"),
		"id-ns":     readFixture(t, "qemu-nvme-id-ns.bin"),
		"smart-log": readFixture(t, "qemu-nvme-smart-log.bin"),
		"fw-log":    fw,
		"zeros":     make([]byte, IDCtrlSize),
	}
	checks := map[string]func([]byte) error{"id-ctrl": CheckIDCtrl, "id-ns": CheckIDNs, "smart-log": CheckSmartLog, "fw-log": CheckFwSlotLog}
	cases := []struct {
		check, page string
		want        string // "" passes
	}{
		{"id-ctrl", "id-ctrl", ""},
		{"id-ns", "id-ns", ""},
		{"smart-log", "smart-log", ""},
		{"fw-log", "fw-log", ""},
		{"id-ctrl", "id-ns", "not an Identify Controller page: its model number"},
		{"id-ns", "id-ctrl", "not an Identify Namespace page"},
		{"smart-log", "fw-log", "not a SMART / Health Information log"},
		{"fw-log", "smart-log", "not a firmware slot log"},
		{"id-ctrl", "zeros", "model number (bytes 24-63) is empty"},
		{"id-ns", "zeros", "size (NSZE) is 0"},
	}
	for _, tc := range cases {
		err := checks[tc.check](pages[tc.page])
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s on a %s page: %v", tc.check, tc.page, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s on a %s page: %v, want %q", tc.check, tc.page, err, tc.want)
		}
	}
}

// TestPowerStateFields: the relative performance and active power
// workload of a descriptor, and its text.
func TestPowerStateFields(t *testing.T) {
	b := append([]byte{}, readFixture(t, "qemu-nvme-id-ctrl.bin")...)
	d := b[psdOffset:]
	d[12], d[13], d[14], d[15] = 1, 2, 3, 0xe4 // rrt, rrl, rwt, rwl (bits 4:0)
	d[22] = 2<<6 | 2                           // active power scale 0.01 W, workload 2
	d[3] |= 2                                  // non-operational
	c, err := DecodeIDCtrl(b)
	if err != nil {
		t.Fatal(err)
	}
	ps := c.PowerStates[0]
	if ps.ReadTput != 1 || ps.ReadLat != 2 || ps.WriteTput != 3 || ps.WriteLat != 4 || ps.ActivePowerWork != 2 || ps.ActiveScale != 2 {
		t.Errorf("%+v", ps)
	}
	if ps.String() != "25 W (non-operational)" {
		t.Errorf("String() = %q", ps.String())
	}
}

func TestNamespaceMeanings(t *testing.T) {
	cases := []struct {
		dps, dlfeat       uint8
		protection, reads string
	}{
		{0, 0, "none", "not reported"},
		{1, 1, "type 1, in the last bytes of metadata", "zeroes"},
		{8 | 3, 2, "type 3, in the first bytes of metadata", "ones (0xff)"},
	}
	for _, tc := range cases {
		ns := &IDNs{DPS: tc.dps, DLFEAT: tc.dlfeat}
		if ns.Protection() != tc.protection || ns.DeallocatedRead() != tc.reads {
			t.Errorf("dps %#x dlfeat %#x: %q, %q", tc.dps, tc.dlfeat, ns.Protection(), ns.DeallocatedRead())
		}
	}
}

// TestSmartSensorsAsNvmeCli: a sensor that reports is also printed as
// temperature_sensor_N, as nvme-cli names it; absent ones are not.
func TestSmartSensorsAsNvmeCli(t *testing.T) {
	b := append([]byte{}, readFixture(t, "qemu-nvme-smart-log.bin")...)
	b[202], b[203] = 0x3e, 0x01 // sensor 2: 318 K
	s, err := DecodeSmartLog(b)
	if err != nil {
		t.Fatal(err)
	}
	got := asJSONObject(t, s)
	if v, ok := got["temperature_sensor_2"]; !ok || v.(json.Number).String() != "318" {
		t.Errorf("temperature_sensor_2 = %v", v)
	}
	if _, ok := got["temperature_sensor_1"]; ok {
		t.Errorf("an absent sensor is printed: %v", got)
	}
}
