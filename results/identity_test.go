package results

import (
	"slices"
	"testing"
)

func TestIdentity(t *testing.T) {
	sheet := &SpecSheet{Name: "pe6011-1.92tb", Capacity: 1_920_000_000_000}
	tests := []struct {
		name       string
		drive      Drive
		label      string
		capacity   int64
		mismatches []string
	}{
		{
			name:  "a scratch file: what the plan declares",
			drive: Drive{Facts: map[string]string{"type": "file"}, Declared: map[string]string{"model": "ACME X1", "serial": "AX1-001", "firmware": "1.0"}},
			label: "ACME X1, S/N AX1-001, FW 1.0",
		},
		{
			name: "a block device: what it reports, the plan filling in",
			drive: Drive{Facts: map[string]string{"type": "block", "model": "SK hynix PE6011", "serial": "SN1", "size": "1920383410176"},
				Declared: map[string]string{"firmware": "A01"}, SpecSheet: sheet},
			label: "SK hynix PE6011, S/N SN1, FW A01", capacity: 1920383410176,
		},
		{
			name: "the plan and the drive disagree",
			drive: Drive{Facts: map[string]string{"type": "block", "model": "SK hynix PE6011", "serial": "SN2", "firmware": "A02", "size": "960197124096"},
				Declared: map[string]string{"serial": "SN1", "firmware": "a02"}, SpecSheet: sheet},
			label: "SK hynix PE6011, S/N SN2, FW A02", capacity: 960197124096,
			mismatches: []string{"serial: the plan declares SN1, the drive reports SN2", "capacity: the spec sheet is for 1.92 TB, the drive holds 960.20 GB"},
		},
		{
			name: "fio's outputs imported with the drive's capacity declared (import fio -capacity)",
			drive: Drive{Declared: map[string]string{"model": "ACME X1", "serial": "AX1-001", DeclaredCapacity: "1920383410176"},
				SpecSheet: sheet},
			label: "ACME X1, S/N AX1-001", capacity: 1920383410176,
		},
		{
			name:  "neither a file's size nor a sheet's capacity is the drive's",
			drive: Drive{Facts: map[string]string{"type": "file", "size": "1048576"}, SpecSheet: sheet},
			label: "", capacity: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := tt.drive.Identity()
			k := id.Known()
			if k.Label() != tt.label || k.CapacityBytes != tt.capacity {
				t.Errorf("known %q, %d bytes; want %q, %d", k.Label(), k.CapacityBytes, tt.label, tt.capacity)
			}
			if got := id.Mismatches(); !slices.Equal(got, tt.mismatches) && (len(got) > 0 || len(tt.mismatches) > 0) {
				t.Errorf("mismatches %q, want %q", got, tt.mismatches)
			}
		})
	}
}
