package nvme

import "fmt"

// Status is an NVMe completion status without the phase tag, as the Linux
// driver returns it from NVME_IOCTL_ADMIN_CMD and as the error log stores
// it: status code (SC) in bits 7:0, status code type (SCT) in bits 10:8,
// more in bit 13, do-not-retry in bit 14.
type Status uint16

// SC returns the status code.
func (s Status) SC() uint8 { return uint8(s) }

// SCT returns the status code type: 0 generic, 1 command specific, 2 media
// and data integrity, 3 path related, 7 vendor specific.
func (s Status) SCT() uint8 { return uint8(s>>8) & 7 }

// DNR reports whether the controller says retrying will fail again.
func (s Status) DNR() bool { return s&(1<<14) != 0 }

// statusTexts describes the status codes a benchmark run meets, keyed by
// SCT<<8 | SC.
var statusTexts = map[uint16]string{
	0x000: "successful completion",
	0x001: "invalid command opcode",
	0x002: "invalid field in command",
	0x003: "command ID conflict",
	0x004: "data transfer error",
	0x005: "aborted due to power loss notification",
	0x006: "internal error",
	0x007: "command abort requested",
	0x008: "aborted due to submission queue deletion",
	0x00b: "invalid namespace or format",
	0x00c: "command sequence error",
	0x01c: "sanitize failed",
	0x01d: "sanitize in progress",
	0x020: "namespace is write protected",
	0x021: "command interrupted",
	0x080: "LBA out of range",
	0x081: "capacity exceeded",
	0x082: "namespace not ready",
	0x083: "reservation conflict",
	0x084: "format in progress",
	0x109: "invalid log page",
	0x10a: "invalid format",
	0x115: "operation denied",
	0x123: "sanitize prohibited while persistent memory region is enabled",
	0x280: "write fault",
	0x281: "unrecovered read error",
	0x282: "end-to-end guard check error",
	0x285: "compare failure",
	0x286: "access denied",
	0x287: "deallocated or unwritten logical block",
}

// String gives the raw status and its meaning, e.g.
// "0x0002 (invalid field in command)".
func (s Status) String() string {
	text, ok := statusTexts[uint16(s)&0x7ff]
	if !ok {
		text = fmt.Sprintf("status code type %d, status code 0x%02x", s.SCT(), s.SC())
	}
	return fmt.Sprintf("0x%04x (%s)", uint16(s), text)
}

// StatusError is a command the controller completed with an error status.
type StatusError struct {
	Op     string // the command, e.g. "format nvm"
	Path   string // the device it was sent to
	Status Status
}

// Error names the command, the device and the status.
func (e *StatusError) Error() string {
	msg := fmt.Sprintf("nvme: %s on %s: controller returned status %s", e.Op, e.Path, e.Status)
	if e.Status.DNR() {
		msg += "; the controller says retrying will not help"
	}
	return msg
}
