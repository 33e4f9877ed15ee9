//go:build linux

package nvme

import (
	"context"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Device is an open NVMe controller or namespace. Its methods send admin
// commands, which the driver routes to the controller either way.
type Device struct {
	// Path is the device file as given to Open.
	Path string
	// NSID is the namespace of a namespace device, 0 for a controller.
	NSID uint32

	fd     int
	submit func(adminCmd) (result uint32, status Status, err error)
}

// Open opens a controller character device (/dev/nvme0) or a namespace
// block or character device (/dev/nvme0n1, /dev/ng0n1). The device is
// opened read-only: admin commands need CAP_SYS_ADMIN, not write access.
func Open(path string) (*Device, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return nil, fmt.Errorf("nvme: %w", &os.PathError{Op: "stat", Path: path, Err: err})
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("nvme: %w", &os.PathError{Op: "open", Path: path, Err: err})
	}
	nsid, err := deviceNamespace(fd, path, st)
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	d := &Device{Path: path, NSID: nsid, fd: fd}
	d.submit = func(c adminCmd) (uint32, Status, error) { return submitAdmin(d.fd, c) }
	return d, nil
}

// deviceNamespace returns the namespace ID of a namespace device, 0 for a
// controller device, and an error for anything that is not NVMe.
func deviceNamespace(fd int, path string, st unix.Stat_t) (uint32, error) {
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFBLK, unix.S_IFCHR:
	default:
		return 0, fmt.Errorf("nvme: %s is not a device file; give an NVMe controller (/dev/nvme0) or namespace (/dev/nvme0n1)", path)
	}
	nsid, err := namespaceID(fd)
	if err == nil {
		return nsid, nil
	}
	if st.Mode&unix.S_IFMT == unix.S_IFCHR && classOf(host.charDir(st.Rdev)) == classController {
		return 0, nil
	}
	return 0, fmt.Errorf("nvme: %s is not an NVMe controller or namespace (NVME_IOCTL_ID: %v)", path, err)
}

// Close releases the device.
func (d *Device) Close() error {
	if d.fd < 0 {
		return nil
	}
	err := unix.Close(d.fd)
	d.fd = -1
	if err != nil {
		return fmt.Errorf("nvme: close %s: %w", d.Path, err)
	}
	return nil
}

// run submits c and turns a failed completion into an error.
func (d *Device) run(op string, c adminCmd) (uint32, error) {
	result, status, err := d.submit(c)
	if err != nil {
		return 0, ioctlError(op, d.Path, err)
	}
	if status != 0 {
		return 0, &StatusError{Op: op, Path: d.Path, Status: status}
	}
	return result, nil
}

// IdentifyController reads and decodes the Identify Controller data.
func (d *Device) IdentifyController() (*IDCtrl, error) {
	buf := make([]byte, IDCtrlSize)
	if _, err := d.run("identify controller", identifyCmd(cnsController, 0, buf)); err != nil {
		return nil, err
	}
	return DecodeIDCtrl(buf)
}

// IdentifyNamespace reads and decodes the Identify Namespace data of nsid
// (use d.NSID for the namespace the device was opened as).
func (d *Device) IdentifyNamespace(nsid uint32) (*IDNs, error) {
	if nsid == 0 || nsid == NSIDAll {
		return nil, fmt.Errorf("nvme: identify namespace on %s: namespace ID %#x is not a namespace; open a namespace device or give its ID", d.Path, nsid)
	}
	buf := make([]byte, IDNsSize)
	if _, err := d.run(fmt.Sprintf("identify namespace %d", nsid), identifyCmd(cnsNamespace, nsid, buf)); err != nil {
		return nil, err
	}
	return DecodeIDNs(buf)
}

// GetLogPage reads size bytes (a positive multiple of 4, within the
// controller's maximum transfer size, MDTS) from the start of log page lid
// for namespace nsid (NSIDAll for the controller).
func (d *Device) GetLogPage(lid uint8, nsid uint32, size int) ([]byte, error) {
	if err := logPageSize(size); err != nil {
		return nil, err
	}
	buf := make([]byte, size)
	if _, err := d.run(fmt.Sprintf("get log page 0x%02x", lid), getLogPageCmd(lid, nsid, buf)); err != nil {
		return nil, err
	}
	return buf, nil
}

// SmartLog reads the controller-wide SMART / Health Information log.
func (d *Device) SmartLog() (*SmartLog, error) {
	buf, err := d.GetLogPage(LogSmart, NSIDAll, SmartLogSize)
	if err != nil {
		return nil, err
	}
	return DecodeSmartLog(buf)
}

// ErrorLog reads the newest n entries (1 to ELPE+1) of the Error
// Information log and returns the non-empty ones.
func (d *Device) ErrorLog(n int) ([]ErrorLogEntry, error) {
	size, err := errorLogSize(n)
	if err != nil {
		return nil, err
	}
	buf, err := d.GetLogPage(LogError, NSIDAll, size)
	if err != nil {
		return nil, err
	}
	return DecodeErrorLog(buf)
}

// FirmwareSlotLog reads the Firmware Slot Information log.
func (d *Device) FirmwareSlotLog() (*FwSlotLog, error) {
	buf, err := d.GetLogPage(LogFwSlot, NSIDAll, FwSlotLogSize)
	if err != nil {
		return nil, err
	}
	return DecodeFwSlotLog(buf)
}

// SanitizeLog reads the Sanitize Status log.
func (d *Device) SanitizeLog() (*SanitizeLog, error) {
	buf, err := d.GetLogPage(LogSanitize, NSIDAll, SanitizeLogSize)
	if err != nil {
		return nil, err
	}
	return DecodeSanitizeLog(buf)
}

// Format issues Format NVM for namespace nsid (NSIDAll for every
// namespace) and waits for it to finish. It destroys the namespace's
// data: call CheckWritable on the namespace first. The driver rescans the
// namespace afterwards, so a new block size shows up without a reboot.
func (d *Device) Format(nsid uint32, opts FormatOptions) error {
	c, err := formatCmd(nsid, opts)
	if err != nil {
		return err
	}
	_, err = d.run(fmt.Sprintf("format nvm (namespace %#x, LBA format %d, %s)", nsid, opts.LBAFormat, opts.SecureErase), c)
	return err
}

// Sanitize starts a sanitize of the whole NVM subsystem and returns once
// the controller has accepted it; the operation then runs in the
// background (see WaitSanitize). It destroys all user data in every
// namespace.
func (d *Device) Sanitize(opts SanitizeOptions) error {
	c, err := sanitizeCmd(opts)
	if err != nil {
		return err
	}
	_, err = d.run("sanitize ("+opts.Action.String()+")", c)
	return err
}

// WaitSanitize polls the Sanitize Status log once a second until the
// running sanitize ends, calling poll (if not nil) with the fraction done.
// It returns the final log, or an error if the sanitize failed, none was
// running, or ctx ended first (the sanitize itself carries on).
func (d *Device) WaitSanitize(ctx context.Context, poll func(progress float64)) (*SanitizeLog, error) {
	return waitSanitize(ctx, d.SanitizeLog, sanitizePollInterval, poll)
}
