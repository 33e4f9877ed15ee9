//go:build linux

package blockdev

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// UnsafeError says why a block device must not be written to.
type UnsafeError struct {
	Path   string // the device as given
	Reason string // e.g. "is mounted at /mnt/x", "holds an ext4 filesystem"
	// InUse means the system is using the device right now (mounted, swap,
	// held by device-mapper or md, opened exclusively). Writing to it would
	// corrupt live data, so no plan setting should override this; the
	// device must be released first. Otherwise the device only holds data
	// that a plan may choose to overwrite.
	InUse bool
}

// Error gives the path, the reason and what to do about it.
func (e *UnsafeError) Error() string {
	if e.InUse {
		return fmt.Sprintf("%s %s; it is in use, so drivebench will not write to it: unmount it or stop what holds it, then run again",
			e.Path, e.Reason)
	}
	return fmt.Sprintf("%s %s; set allow_existing_data = true on the drive in the plan to overwrite it", e.Path, e.Reason)
}

// CheckWritable returns nil when the block device at path looks safe to
// overwrite, and an *UnsafeError when it (or any partition of it) is
// mounted, used as swap, held by another block device (md, dm, LVM),
// partitioned, opened exclusively, or carries a partition table or
// filesystem signature. Other errors mean the checks could not be made;
// treat them as a refusal too.
func CheckWritable(path string) error {
	dev, err := blockDevNum(path)
	if err != nil {
		return fmt.Errorf("check %s before writing: %w", path, err)
	}
	return Host.checkWritable(path, dev)
}

// writeTarget is the device being checked and its partitions.
type writeTarget struct {
	path  string
	self  Node
	parts []Node
}

// nodes returns the device followed by its partitions.
func (t writeTarget) nodes() []Node { return append([]Node{t.self}, t.parts...) }

// is phrases a finding about n: "is mounted at /x" for the device itself,
// "has partition /dev/sdb1 mounted at /x" for a partition.
func (t writeTarget) is(n Node, state string) string {
	if n.Dev == t.self.Dev {
		return "is " + state
	}
	return "has partition " + n.DevPath() + " " + state
}

func (s System) checkWritable(path string, dev uint64) error {
	t, err := s.target(path, dev)
	if err != nil {
		return fmt.Errorf("check %s before writing: %w", path, err)
	}
	checks := []func(writeTarget) error{s.checkMounts, s.checkSwaps, checkHolders, checkPartitions, checkContents}
	for _, check := range checks {
		if err := check(t); err != nil {
			var refusal *UnsafeError
			if errors.As(err, &refusal) {
				return err
			}
			return fmt.Errorf("check %s before writing: %w", path, err)
		}
	}
	return nil
}

// target finds the device and, for a whole disk, its partitions.
func (s System) target(path string, dev uint64) (writeTarget, error) {
	self, err := s.Find(dev)
	if err != nil {
		return writeTarget{}, err
	}
	t := writeTarget{path: path, self: self}
	if !self.isPartition() {
		t.parts, err = self.partitions()
	}
	return t, err
}

// findNode returns the node of t with device number dev.
func (t writeTarget) findNode(dev uint64) (Node, bool) {
	for _, n := range t.nodes() {
		if n.Dev == dev {
			return n, true
		}
	}
	return Node{}, false
}

// findSource returns the node of t that a mount or swap source names. The
// source is compared by device number, so symlinks and /dev/mapper names
// resolve too.
func (t writeTarget) findSource(source string) (Node, bool) {
	if !strings.HasPrefix(source, "/") {
		return Node{}, false
	}
	var st unix.Stat_t
	if unix.Stat(source, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return Node{}, false
	}
	return t.findNode(st.Rdev)
}

func (s System) checkMounts(t writeTarget) error {
	f, err := os.Open(s.Mountinfo)
	if err != nil {
		return err
	}
	defer f.Close()
	mounts, err := parseMountinfo(f)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Mountinfo, err)
	}
	for _, m := range mounts {
		n, ok := t.findNode(m.dev)
		if !ok {
			n, ok = t.findSource(m.source)
		}
		if ok {
			return &UnsafeError{Path: t.path, Reason: t.is(n, "mounted at "+m.point), InUse: true}
		}
	}
	return nil
}

func (s System) checkSwaps(t writeTarget) error {
	f, err := os.Open(s.Swaps)
	if errors.Is(err, os.ErrNotExist) {
		return nil // kernel without swap support
	}
	if err != nil {
		return err
	}
	defer f.Close()
	names, err := parseSwaps(f)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Swaps, err)
	}
	for _, name := range names {
		if n, ok := t.findSource(name); ok {
			return &UnsafeError{Path: t.path, Reason: t.is(n, "in use as swap"), InUse: true}
		}
	}
	return nil
}

func checkHolders(t writeTarget) error {
	for _, n := range t.nodes() {
		holders, err := n.holders()
		if err != nil {
			return err
		}
		if len(holders) > 0 {
			reason := t.is(n, "held by "+strings.Join(holders, ", "))
			return &UnsafeError{Path: t.path, Reason: reason, InUse: true}
		}
	}
	return nil
}

func checkPartitions(t writeTarget) error {
	if len(t.parts) == 0 {
		return nil
	}
	names := make([]string, len(t.parts))
	for i, p := range t.parts {
		names[i] = p.DevPath()
	}
	return &UnsafeError{Path: t.path, Reason: "has partitions (" + strings.Join(names, ", ") + ")"}
}

// checkContents opens the device exclusively and looks for signatures.
func checkContents(t writeTarget) error {
	f, err := openExclusive(t)
	if err != nil {
		return err
	}
	defer f.Close()
	name, err := detectOpen(f)
	if err != nil {
		return err
	}
	if name != "" {
		return &UnsafeError{Path: t.path, Reason: signatureReason(name)}
	}
	return nil
}

// CheckFileWritable returns nil when the regular file at path looks safe
// to overwrite, and an *UnsafeError when it is the backing file of a loop
// device or carries a partition table, filesystem, LVM, RAID or other
// signature (DetectSignature). Through a loop device that is mounted,
// used as swap, held by another block device or opened exclusively, the
// file is in use (UnsafeError.InUse), and the reason names the loop
// device and what uses it. Other errors mean the checks could not be
// made; treat them as a refusal too.
func CheckFileWritable(path string) error {
	return Host.checkFileWritable(path)
}

func (s System) checkFileWritable(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("check %s before writing: %w", path, err)
	}
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fmt.Errorf("check %s before writing: %w", path, err)
	}
	var reasons []string
	loops, err := s.loopsBacking(uint64(st.Dev), st.Ino)
	if err != nil {
		return fmt.Errorf("check %s before writing: look for loop devices on it: %w", path, err)
	}
	for _, n := range loops {
		if err := s.CheckNotInUse(n.DevPath(), n.Dev); err != nil {
			var refusal *UnsafeError
			if errors.As(err, &refusal) {
				return &UnsafeError{Path: path, InUse: true,
					Reason: "is the backing file of loop device " + n.DevPath() + ", which " + refusal.Reason}
			}
			return fmt.Errorf("check %s before writing: %w", path, err)
		}
		reasons = append(reasons, "is the backing file of loop device "+n.DevPath()+" (losetup --detach "+n.DevPath()+" frees it)")
	}
	name, err := detectOpen(f)
	if err != nil {
		return fmt.Errorf("check %s before writing: %w", path, err)
	}
	if name != "" {
		reasons = append(reasons, signatureReason(name))
	}
	if len(reasons) > 0 {
		return &UnsafeError{Path: path, Reason: strings.Join(reasons, " and ")}
	}
	return nil
}

// checkNotBusy fails while the device is opened exclusively.
func checkNotBusy(t writeTarget) error {
	f, err := openExclusive(t)
	if err != nil {
		return err
	}
	return f.Close()
}

// openExclusive opens the device exclusively, which fails while the
// kernel or another program holds it (a mount in another namespace, a
// RAID member, a running benchmark).
func openExclusive(t writeTarget) (*os.File, error) { return Claim(t.path) }

// Claim opens the block device at path exclusively (O_EXCL), as mount and
// mkfs do. It fails with an *UnsafeError while the kernel or another
// program holds the device (mounted, a RAID or LVM member, claimed by
// another benchmark); while the file it returns stays open, the kernel
// refuses them the device in turn. Reads and writes through other
// descriptors, the engines' own, are not affected.
func Claim(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_EXCL, 0)
	if errors.Is(err, unix.EBUSY) {
		return nil, &UnsafeError{Path: path, InUse: true,
			Reason: "is busy: the kernel or another program has it open exclusively"}
	}
	return f, err
}

// CheckNotInUse returns an *UnsafeError when the block device or a
// partition of it is mounted, used as swap, held by another block device
// or opened exclusively. Unlike checkWritable it does not mind data on
// the device: it guards commands that erase the device anyway.
func (s System) CheckNotInUse(path string, dev uint64) error {
	t, err := s.target(path, dev)
	if err != nil {
		return fmt.Errorf("check %s is not in use: %w", path, err)
	}
	for _, check := range []func(writeTarget) error{s.checkMounts, s.checkSwaps, checkHolders, checkNotBusy} {
		if err := check(t); err != nil {
			var refusal *UnsafeError
			if errors.As(err, &refusal) {
				return err
			}
			return fmt.Errorf("check %s is not in use: %w", path, err)
		}
	}
	return nil
}
