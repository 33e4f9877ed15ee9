//go:build linux

package blockdev

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// BlockDevice describes a block device of any kind (NVMe, SATA, virtio,
// loop, zram) as the kernel sees it.
type BlockDevice struct {
	Path      string `json:"path"`
	Name      string `json:"name"` // kernel name, e.g. "nvme0n1"
	Disk      string `json:"disk"` // kernel name of the whole disk; Name unless a partition
	Partition bool   `json:"partition"`
	Major     uint32 `json:"major"`
	Minor     uint32 `json:"minor"`

	Size              int64 `json:"size"`                // bytes (BLKGETSIZE64)
	LogicalBlockSize  int   `json:"logical_block_size"`  // bytes (BLKSSZGET)
	PhysicalBlockSize int   `json:"physical_block_size"` // bytes (BLKPBSZGET)

	Rotational bool   `json:"rotational"`
	Model      string `json:"model,omitempty"`
	Vendor     string `json:"vendor,omitempty"`
	Serial     string `json:"serial,omitempty"`
	Firmware   string `json:"firmware,omitempty"`
	// QueueDepth is the device's queue depth where the driver exposes it
	// (SCSI and SATA); 0 otherwise.
	QueueDepth int `json:"queue_depth,omitempty"`
	// NrRequests is the block layer's request limit per hardware queue.
	NrRequests int `json:"nr_requests,omitempty"`
	// Scheduler is the active I/O scheduler, e.g. "none" or "mq-deadline".
	Scheduler string `json:"scheduler,omitempty"`
	// WWID is the disk's world-wide identifier as the kernel gives it (an
	// NVMe namespace's EUI-64 or NGUID, a SCSI disk's WWN); empty when the
	// driver has none.
	WWID string `json:"wwid,omitempty"`
	// SectorsWritten is the kernel's count of 512-byte sectors written to
	// the device (or partition) since boot, from its stat file.
	SectorsWritten uint64 `json:"sectors_written"`
	// BackingDevice and BackingInode are, for a loop device, the file it
	// is attached to (LOOP_GET_STATUS64): its file system's device number
	// and its inode; zero for other devices, or when the device node
	// cannot be opened.
	BackingDevice uint64 `json:"backing_device,omitempty"`
	BackingInode  uint64 `json:"backing_inode,omitempty"`
}

// IsBlockDevice reports whether path is (or links to) a block device.
func IsBlockDevice(path string) bool {
	_, err := blockDevNum(path)
	return err == nil
}

// BlockInfo reads the size and block sizes of the block device at path
// with ioctls, and the rest from sysfs. It opens the device read-only.
func BlockInfo(path string) (*BlockDevice, error) {
	dev, err := blockDevNum(path)
	if err != nil {
		return nil, err
	}
	b := &BlockDevice{Path: path, Major: unix.Major(dev), Minor: unix.Minor(dev)}
	if err := b.readIoctls(); err != nil {
		return nil, err
	}
	if err := Host.readBlockFacts(dev, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b.readLoopBacking()
	return b, nil
}

// readIoctls fills the sizes the kernel reports for the open device.
func (b *BlockDevice) readIoctls() error {
	f, err := os.OpenFile(b.Path, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fd := int(f.Fd())
	size, err := unix.IoctlGetUint64(fd, unix.BLKGETSIZE64)
	if err != nil {
		return fmt.Errorf("%s: BLKGETSIZE64: %w", b.Path, err)
	}
	logical, err := unix.IoctlGetUint32(fd, unix.BLKSSZGET)
	if err != nil {
		return fmt.Errorf("%s: BLKSSZGET: %w", b.Path, err)
	}
	physical, err := unix.IoctlGetUint32(fd, unix.BLKPBSZGET)
	if err != nil {
		return fmt.Errorf("%s: BLKPBSZGET: %w", b.Path, err)
	}
	b.Size, b.LogicalBlockSize, b.PhysicalBlockSize = int64(size), int(logical), int(physical)
	return nil
}

// readBlockFacts fills the sysfs facts; queue and device attributes live
// on the whole disk, so a partition reads its disk's.
func (s System) readBlockFacts(dev uint64, b *BlockDevice) error {
	n, err := s.Find(dev)
	if err != nil {
		return err
	}
	disk, err := n.Disk()
	if err != nil {
		return err
	}
	b.Name, b.Disk, b.Partition = n.Name, disk.Name, n.isPartition()
	b.Rotational = ReadAttr(disk.Dir, "queue/rotational") == "1"
	b.NrRequests = readIntAttr(disk.Dir, "queue/nr_requests")
	b.Scheduler = activeScheduler(ReadAttr(disk.Dir, "queue/scheduler"))
	b.Model, b.Vendor = ReadAttr(disk.Dir, "device/model"), ReadAttr(disk.Dir, "device/vendor")
	b.Serial = ReadAttr(disk.Dir, "device/serial")
	b.Firmware = firstAttr(disk.Dir, "device/firmware_rev", "device/rev")
	b.QueueDepth = readIntAttr(disk.Dir, "device/queue_depth")
	b.WWID = firstAttr(disk.Dir, "wwid", "device/wwid")
	b.SectorsWritten = sectorsWritten(ReadAttr(n.Dir, "stat"))
	return nil
}

// sectorsWritten reads the seventh field of a block device's stat file
// (Documentation/block/stat.rst): sectors written; 0 when absent.
func sectorsWritten(stat string) uint64 {
	f := strings.Fields(stat)
	if len(f) < 7 {
		return 0
	}
	n, _ := strconv.ParseUint(f[6], 10, 64)
	return n
}

// firstAttr returns the first of the named attributes that is present.
func firstAttr(dir string, names ...string) string {
	for _, name := range names {
		if v := ReadAttr(dir, name); v != "" {
			return v
		}
	}
	return ""
}

// activeScheduler picks the bracketed entry of queue/scheduler, e.g.
// "none" from "[none] mq-deadline kyber".
func activeScheduler(s string) string {
	if _, rest, ok := strings.Cut(s, "["); ok {
		name, _, _ := strings.Cut(rest, "]")
		return name
	}
	return s
}

// Facts returns the device description as the string facts a results
// manifest records; empty values are left out.
func (b *BlockDevice) Facts() map[string]string {
	facts := map[string]string{
		"type":                "block",
		"kernel_name":         b.Name,
		"size":                strconv.FormatInt(b.Size, 10),
		"logical_block_size":  strconv.Itoa(b.LogicalBlockSize),
		"physical_block_size": strconv.Itoa(b.PhysicalBlockSize),
		"rotational":          strconv.FormatBool(b.Rotational),
		"model":               b.Model,
		"vendor":              b.Vendor,
		"serial":              b.Serial,
		"firmware":            b.Firmware,
		"scheduler":           b.Scheduler,
		"wwid":                b.WWID,
	}
	if b.QueueDepth > 0 {
		facts["queue_depth"] = strconv.Itoa(b.QueueDepth)
	}
	if b.NrRequests > 0 {
		facts["nr_requests"] = strconv.Itoa(b.NrRequests)
	}
	for k, v := range facts {
		if v == "" {
			delete(facts, k)
		}
	}
	return facts
}
