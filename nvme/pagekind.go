package nvme

import (
	"bytes"
	"fmt"
)

// A page saved with nvme-cli's -b carries no type: an Identify Namespace
// page and an Identify Controller page are both 4096 bytes, a SMART log
// and a firmware slot log both 512. Decoding the wrong one gives numbers
// that look real. The checks below recognise each page by what the
// specification fixes in it; they are for pages read from files, not for
// pages a device just returned for the command that names their type.

// CheckIDCtrl reports why b is not an Identify Controller page: its
// model number must be text, its serial and firmware revision text or
// padding.
func CheckIDCtrl(b []byte) error {
	p, err := newPage("identify controller data", b, IDCtrlSize)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name     string
		off, n   int
		nonEmpty bool
	}{{"model number (bytes 24-63)", 24, 40, true}, {"serial number (bytes 4-23)", 4, 20, false}, {"firmware revision (bytes 64-71)", 64, 8, false}} {
		if err := checkText(p[f.off:f.off+f.n], f.nonEmpty); err != nil {
			return notThePage("an Identify Controller page", fmt.Sprintf("its %s %v", f.name, err), "id-ns")
		}
	}
	return nil
}

// CheckIDNs reports why b is not an Identify Namespace page: capacity
// at most the size, use at most the capacity, and the format in use
// listed with a data size of at least 512 bytes.
func CheckIDNs(b []byte) error {
	p, err := newPage("identify namespace data", b, IDNsSize)
	if err != nil {
		return err
	}
	nsze, ncap, nuse, nlbaf := p.u64(0), p.u64(8), p.u64(16), int(p.u8(25))
	switch {
	case nsze == 0:
		return notThePage("an Identify Namespace page", "its size (NSZE) is 0: an inactive namespace, or another page", "id-ctrl")
	case ncap > nsze || nuse > ncap:
		return notThePage("an Identify Namespace page", fmt.Sprintf("its capacity %d exceeds its size %d, or its use %d its capacity", ncap, nsze, nuse), "id-ctrl")
	case nlbaf >= maxLBAFs:
		return notThePage("an Identify Namespace page", fmt.Sprintf("it would list %d LBA formats, more than %d", nlbaf+1, maxLBAFs), "id-ctrl")
	case lbafIndex(p.u8(26)) > nlbaf:
		return notThePage("an Identify Namespace page", fmt.Sprintf("the format in use (FLBAS %#02x) is not among its %d formats", p.u8(26), nlbaf+1), "id-ctrl")
	}
	if ds := p.u8(lbafOffset + 4*lbafIndex(p.u8(26)) + 2); ds < 9 || ds > 32 {
		return notThePage("an Identify Namespace page", fmt.Sprintf("the format in use has a data size of 2^%d bytes", ds), "id-ctrl")
	}
	return nil
}

// CheckSmartLog reports why b is not a SMART / Health Information log:
// bytes 7-31 are reserved and zero. A firmware slot log has revision
// text there.
func CheckSmartLog(b []byte) error {
	p, err := newPage("SMART/health log", b, SmartLogSize)
	if err != nil {
		return err
	}
	if !allZero(p[7:32]) {
		return notThePage("a SMART / Health Information log", "its reserved bytes 7-31 are not zero", "fw-log")
	}
	return nil
}

// CheckFwSlotLog reports why b is not a firmware slot log: the active
// slot is 1 to 7 and bytes 1-7 are reserved and zero.
func CheckFwSlotLog(b []byte) error {
	p, err := newPage("firmware slot log", b, FwSlotLogSize)
	if err != nil {
		return err
	}
	if slot := p.u8(0) & 7; slot == 0 || !allZero(p[1:8]) {
		return notThePage("a firmware slot log", fmt.Sprintf("its active slot is %d and its reserved bytes 1-7 %v", slot, zeroText(p[1:8])), "smart-log")
	}
	return nil
}

func notThePage(what, why, other string) error {
	return fmt.Errorf("nvme: this is not %s: %s. Check the file, or decode it as %s", what, why, other)
}

// checkText checks a fixed-width ASCII field: printable characters, then
// only space or NUL padding.
func checkText(field []byte, nonEmpty bool) error {
	text := bytes.TrimRight(field, " \x00")
	if nonEmpty && len(text) == 0 {
		return fmt.Errorf("is empty")
	}
	for i, c := range text {
		if c < 0x20 || c > 0x7e {
			return fmt.Errorf("holds the byte %#02x at %d, which is not text", c, i)
		}
	}
	return nil
}

func allZero(b []byte) bool { return bytes.Count(b, []byte{0}) == len(b) }

func zeroText(b []byte) string {
	if allZero(b) {
		return "are zero"
	}
	return "are not zero"
}
