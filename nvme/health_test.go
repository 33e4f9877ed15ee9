package nvme

import (
	"strings"
	"testing"
)

func TestDiffSmart(t *testing.T) {
	before := &SmartLog{
		CriticalWarning: WarnTemperature, Temperature: 318, PercentUsed: 3,
		DataUnitsRead: Uint128From(10), DataUnitsWritten: Uint128{Lo: ^uint64(0)},
		MediaErrors: Uint128From(1),
	}
	after := &SmartLog{
		CriticalWarning: WarnTemperature | WarnSpareLow, Temperature: 331, PercentUsed: 4,
		DataUnitsRead: Uint128From(10), DataUnitsWritten: Uint128{Lo: 4, Hi: 1},
		HostWriteCommands: Uint128From(7), MediaErrors: Uint128From(3),
	}
	c, err := DiffSmart(before, after)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"data units written, across the 64-bit boundary", c.DataUnitsWritten, Uint128From(5)},
		{"bytes written", c.BytesWritten().String(), "2560000"},
		{"bytes read", c.BytesRead().String(), "0"},
		{"host writes", c.HostWriteCommands, Uint128From(7)},
		{"media errors", c.MediaErrors, Uint128From(2)},
		{"percent used", c.PercentUsed, 1},
		{"new warnings", c.NewWarnings, WarnSpareLow},
		{"min temperature", c.MinTemperature, Kelvin(318)},
		{"max temperature", c.MaxTemperature, Kelvin(331)},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	_, err = DiffSmart(after, before)
	if err == nil || !strings.Contains(err.Error(), "data_units_written went from 18446744073709551620 to 18446744073709551615") {
		t.Errorf("counters going backwards: err = %v", err)
	}
}

func TestUint128Sub(t *testing.T) {
	tests := []struct {
		u, v, want Uint128
		ok         bool
	}{
		{Uint128From(9), Uint128From(4), Uint128From(5), true},
		{Uint128{Hi: 1}, Uint128From(1), Uint128{Lo: ^uint64(0)}, true},
		{Uint128From(4), Uint128From(9), Uint128{Lo: ^uint64(4), Hi: ^uint64(0)}, false},
	}
	for _, tt := range tests {
		if got, ok := tt.u.Sub(tt.v); got != tt.want || ok != tt.ok {
			t.Errorf("%v - %v = %v, %v; want %v, %v", tt.u, tt.v, got, ok, tt.want, tt.ok)
		}
	}
}
