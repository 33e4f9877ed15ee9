package results

// Target is the file or block device a step ran on, told apart by what it
// is rather than where it is: a path can be given to another file or
// device between two steps, and a table measured on two is not of one
// drive. A regular file is its file system's device, its inode, its birth
// time and its size; a block device its model, serial and world-wide
// name from sysfs, its device number and its size, and a loop device the
// file it is attached to.
type Target struct {
	// Kind is "file" or "block"; Path the path the step used.
	Kind string `json:"kind"`
	Path string `json:"path"`
	Size int64  `json:"size"`
	// Device is a file's file system device, or a block device's own
	// number, as "major:minor".
	Device string `json:"device,omitempty"`
	Inode  uint64 `json:"inode,omitempty"`
	BornNs int64  `json:"born_ns,omitempty"`
	Model  string `json:"model,omitempty"`
	Serial string `json:"serial,omitempty"`
	WWID   string `json:"wwid,omitempty"`
	// BackingDevice and BackingInode are, for a loop device, the file it
	// was attached to: its file system's device and its inode.
	BackingDevice string `json:"backing_device,omitempty"`
	BackingInode  uint64 `json:"backing_inode,omitempty"`
}

// SameAs reports whether t and o are one target, whatever their paths:
// the same file (device, inode, birth time) or the same block device
// (model, serial, world-wide name; its device number and the file behind
// it when it has neither serial nor world-wide name, as a loop device), of
// the same size.
func (t Target) SameAs(o Target) bool {
	if t.Kind != o.Kind || t.Size != o.Size {
		return false
	}
	if t.Kind == "file" {
		return t.Device == o.Device && t.Inode == o.Inode && t.BornNs == o.BornNs
	}
	if t.Serial == "" && t.WWID == "" && o.Serial == "" && o.WWID == "" {
		return t.Model == o.Model && t.Device == o.Device && t.BackingDevice == o.BackingDevice && t.BackingInode == o.BackingInode
	}
	return t.Model == o.Model && t.Serial == o.Serial && t.WWID == o.WWID
}
