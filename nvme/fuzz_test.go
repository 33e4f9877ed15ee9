package nvme

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// seedPages adds the lab's pages, their truncations and a few odd sizes.
func seedPages(f *testing.F, fixture string) {
	page := readFixture(f, fixture)
	f.Add(page)
	f.Add(page[:len(page)/2])
	f.Add(page[:len(page)-1])
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, len(page)))
}

// checkDecoded checks the invariants every decoder keeps: never a panic,
// a ShortPageError below the page size, and JSON that marshals.
func checkDecoded(t *testing.T, data []byte, size int, v any, err error) {
	t.Helper()
	var short *ShortPageError
	if len(data) < size {
		if !errors.As(err, &short) || short.Want != size {
			t.Fatalf("%d bytes: err = %v, want a ShortPageError naming %d", len(data), err, size)
		}
		return
	}
	if err != nil {
		return
	}
	if _, err := json.Marshal(v); err != nil {
		t.Fatalf("marshal decoded page: %v", err)
	}
}

func FuzzDecodeIDCtrl(f *testing.F) {
	seedPages(f, "qemu-nvme-id-ctrl.bin")
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeIDCtrl(data)
		checkDecoded(t, data, IDCtrlSize, c, err)
		if err == nil && len(c.PowerStates) > maxPowerStates {
			t.Fatalf("%d power states", len(c.PowerStates))
		}
	})
}

func FuzzDecodeIDNs(f *testing.F) {
	seedPages(f, "qemu-nvme-id-ns.bin")
	f.Fuzz(func(t *testing.T, data []byte) {
		ns, err := DecodeIDNs(data)
		checkDecoded(t, data, IDNsSize, ns, err)
		if err != nil {
			return
		}
		if ns.FormatInUse >= len(ns.LBAFormats) {
			t.Fatalf("format in use %d of %d", ns.FormatInUse, len(ns.LBAFormats))
		}
		if ns.BlockSize != 0 && ns.CapacityBytes/ns.BlockSize != ns.NSZE {
			t.Fatalf("capacity %d is not %d blocks of %d", ns.CapacityBytes, ns.NSZE, ns.BlockSize)
		}
	})
}

func FuzzDecodeSmartLog(f *testing.F) {
	seedPages(f, "qemu-nvme-smart-log.bin")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSmartLog(data)
		checkDecoded(t, data, SmartLogSize, s, err)
	})
}

func FuzzDecodeErrorLog(f *testing.F) {
	f.Add(make([]byte, 64))
	f.Add(make([]byte, 100))
	f.Add(bytes.Repeat([]byte{1}, 256))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := DecodeErrorLog(data)
		checkDecoded(t, data, ErrorLogEntrySize, entries, err)
		if err == nil && (len(data)%ErrorLogEntrySize != 0 || len(entries) > len(data)/ErrorLogEntrySize) {
			t.Fatalf("%d bytes gave %d entries", len(data), len(entries))
		}
	})
}

func FuzzDecodeFwSlotLog(f *testing.F) {
	f.Add(make([]byte, FwSlotLogSize))
	f.Add(bytes.Repeat([]byte{0xff}, FwSlotLogSize))
	f.Fuzz(func(t *testing.T, data []byte) {
		log, err := DecodeFwSlotLog(data)
		checkDecoded(t, data, FwSlotLogSize, log, err)
		if err == nil {
			_ = log.ActiveRevision()
		}
	})
}

func FuzzDecodeSanitizeLog(f *testing.F) {
	f.Add(make([]byte, SanitizeLogSize))
	f.Add(bytes.Repeat([]byte{0xff}, SanitizeLogSize))
	f.Fuzz(func(t *testing.T, data []byte) {
		log, err := DecodeSanitizeLog(data)
		checkDecoded(t, data, SanitizeLogSize, log, err)
		if err == nil {
			if p := log.Progress(); p < 0 || p > 1 {
				t.Fatalf("progress %v", p)
			}
			_ = log.Status().String()
		}
	})
}

func FuzzUint128JSON(f *testing.F) {
	for _, s := range []string{`"0"`, `"18446744073709551616"`, `42`, `"-1"`, `"1e3"`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var u Uint128
		if err := u.UnmarshalJSON(data); err != nil {
			return
		}
		b, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		var back Uint128
		if err := json.Unmarshal(b, &back); err != nil || back != u {
			t.Fatalf("%s -> %+v -> %s -> %+v, %v", data, u, b, back, err)
		}
	})
}
