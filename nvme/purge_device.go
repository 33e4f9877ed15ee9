//go:build linux

package nvme

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/drivebench/drivebench/blockdev"
	"golang.org/x/sys/unix"
)

// Purge erases all user data of the NVMe namespace at path (a block or
// character device; for the sanitize methods the controller /dev/nvme0
// will do) with method, one of PurgeMethods, and waits until the erase
// has ended, calling progress (if not nil) with the fraction done.
// Sanitize reports the controller's progress; Format NVM is one command,
// so it reports 0 before and 1 after.
//
// Before sending anything Purge checks that the controller supports the
// method (SANICAP, OACS, FNA) and that no namespace the command erases is
// in use: mounted, swap, held by md or device-mapper, or opened
// exclusively. A sanitize erases every namespace of the subsystem, and so
// does a format when FNA says formats or erases apply to all namespaces.
// Afterwards Purge drops the kernel's cached blocks and stale partitions
// of those namespaces, so what is read next comes from the drive. Whether
// the data may be destroyed is the caller's decision.
func Purge(ctx context.Context, path, method string, progress func(float64)) error {
	m, err := lookupPurge(method)
	if err != nil {
		return err
	}
	d, err := Open(path)
	if err != nil {
		return err
	}
	defer d.Close()
	c, err := d.IdentifyController()
	if err != nil {
		return err
	}
	if err := checkPurgeSupport(c, m, path); err != nil {
		return err
	}
	namespaces, err := host.purgeScope(path, m.wholeSubsystem(c))
	if err != nil {
		return fmt.Errorf("nvme: purge %s on %s: %w", m.name, path, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := d.runPurge(ctx, c, m, progress); err != nil {
		return err
	}
	return dropCachedBlocks(namespaces)
}

// purgeScope returns the namespaces a purge through path erases, or an
// error when one of them is in use.
func (s system) purgeScope(path string, whole bool) ([]blockdev.Node, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	namespaces, err := s.erasedNamespaces(st.Mode, st.Rdev, whole)
	if err != nil {
		return nil, err
	}
	for _, n := range namespaces {
		if err := s.CheckNotInUse(n.DevPath(), n.Dev); err != nil {
			return nil, err
		}
	}
	return namespaces, nil
}

// runPurge sends the purge command and waits for it to end.
func (d *Device) runPurge(ctx context.Context, c *IDCtrl, m purgeMethod, progress func(float64)) error {
	if m.sanitize != 0 {
		if err := d.Sanitize(purgeSanitizeOptions(m)); err != nil {
			return err
		}
		_, err := d.WaitSanitize(ctx, progress)
		return err
	}
	if d.NSID == 0 {
		return fmt.Errorf("nvme: purge %s on %s: a format keeps the LBA format of a namespace, so give the namespace device (e.g. %sn1)",
			m.name, d.Path, d.Path)
	}
	ns, err := d.IdentifyNamespace(d.NSID)
	if err != nil {
		return err
	}
	nsid := d.NSID
	if m.wholeSubsystem(c) {
		nsid = NSIDAll
	}
	reportProgress(progress, 0)
	if err := d.Format(nsid, purgeFormatOptions(m, ns)); err != nil {
		return err
	}
	reportProgress(progress, 1)
	return nil
}

// reportProgress calls progress when it is set.
func reportProgress(progress func(float64), fraction float64) {
	if progress != nil {
		progress(fraction)
	}
}

// dropCachedBlocks makes the kernel forget what it cached of the erased
// namespaces: their blocks (BLKFLSBUF) and their partitions (BLKRRPART).
// Otherwise a signature check reads a filesystem the purge erased.
func dropCachedBlocks(namespaces []blockdev.Node) error {
	for _, n := range namespaces {
		if err := dropCache(n.DevPath()); err != nil {
			return fmt.Errorf("nvme: the purge finished, but the kernel still caches the old contents of %s: %w", n.DevPath(), err)
		}
	}
	return nil
}

func dropCache(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fd := int(f.Fd())
	if err := unix.IoctlSetInt(fd, unix.BLKFLSBUF, 0); err != nil {
		return fmt.Errorf("BLKFLSBUF: %w", err)
	}
	if err := unix.IoctlSetInt(fd, unix.BLKRRPART, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("BLKRRPART: %w", err)
	}
	return nil
}
