//go:build linux

package nvme

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// passthruCmd is struct nvme_passthru_cmd (alias struct nvme_admin_cmd)
// from linux/nvme_ioctl.h. Every field sits at its natural alignment, so
// Go lays it out exactly as C does: 72 bytes, checked by a test.
type passthruCmd struct {
	Opcode      uint8  // 0
	Flags       uint8  // 1
	Rsvd1       uint16 // 2
	NSID        uint32 // 4
	Cdw2        uint32 // 8
	Cdw3        uint32 // 12
	Metadata    uint64 // 16: user address of the metadata buffer
	Addr        uint64 // 24: user address of the data buffer
	MetadataLen uint32 // 32
	DataLen     uint32 // 36
	Cdw10       uint32 // 40
	Cdw11       uint32 // 44
	Cdw12       uint32 // 48
	Cdw13       uint32 // 52
	Cdw14       uint32 // 56
	Cdw15       uint32 // 60
	TimeoutMs   uint32 // 64: 0 = the driver's admin timeout
	Result      uint32 // 68: completion dword 0
}

// Linux ioctl request encoding (asm-generic/ioctl.h, used by x86, arm and
// riscv): direction in bits 31:30, argument size in 29:16, type in 15:8,
// number in 7:0.
const (
	iocNone  = 0
	iocWrite = 1
	iocRead  = 2
)

func ioc(dir, typ, nr, size uintptr) uintptr { return dir<<30 | size<<16 | typ<<8 | nr }

var (
	// nvmeIoctlID is _IO('N', 0x40): the namespace ID of a namespace device.
	nvmeIoctlID = ioc(iocNone, 'N', 0x40, 0)
	// nvmeIoctlAdminCmd is _IOWR('N', 0x41, struct nvme_admin_cmd).
	nvmeIoctlAdminCmd = ioc(iocRead|iocWrite, 'N', 0x41, unsafe.Sizeof(passthruCmd{}))
)

// passthru lays the command out for the kernel. The data buffer's address
// is only valid while c.data is alive; submit keeps it so.
func (c adminCmd) passthru() passthruCmd {
	p := passthruCmd{
		Opcode: c.opcode, NSID: c.nsid, Cdw10: c.cdw10, Cdw11: c.cdw11,
		TimeoutMs: timeoutMs(c.timeout),
	}
	if len(c.data) > 0 {
		p.Addr = uint64(uintptr(unsafe.Pointer(&c.data[0])))
		p.DataLen = uint32(len(c.data))
	}
	return p
}

// timeoutMs converts a timeout to the ioctl's milliseconds, saturating.
func timeoutMs(d time.Duration) uint32 {
	ms := d.Milliseconds()
	if ms > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(ms)
}

// submitAdmin issues c on fd with NVME_IOCTL_ADMIN_CMD and returns
// completion dword 0. A positive ioctl return is the NVMe status of a
// command the controller failed; a negative one is an errno.
func submitAdmin(fd int, c adminCmd) (uint32, Status, error) {
	p := c.passthru()
	r, _, errno := ioctlRetry(fd, nvmeIoctlAdminCmd, unsafe.Pointer(&p))
	runtime.KeepAlive(c.data)
	if errno != 0 {
		return 0, 0, errno
	}
	return p.Result, Status(r), nil
}

// ioctlRetry calls ioctl, retrying when a signal interrupts it before the
// command reaches the driver.
func ioctlRetry(fd int, req uintptr, arg unsafe.Pointer) (uintptr, uintptr, unix.Errno) {
	for {
		r, r2, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(arg))
		if errno != unix.EINTR {
			return r, r2, errno
		}
	}
}

// namespaceID asks a namespace device for its namespace ID.
func namespaceID(fd int) (uint32, error) {
	r, _, errno := ioctlRetry(fd, nvmeIoctlID, nil)
	if errno != 0 {
		return 0, errno
	}
	return uint32(r), nil
}

// ioctlError explains an errno from the NVMe driver.
func ioctlError(op, path string, err error) error {
	if errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) {
		return fmt.Errorf("nvme: %s on %s: %w; NVMe admin commands need root (CAP_SYS_ADMIN)", op, path, err)
	}
	return fmt.Errorf("nvme: %s on %s: %w", op, path, err)
}
