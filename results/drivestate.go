package results

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// DriveStateDir holds one drives/<drive>.json per drive of the run;
// DriveStateSchema is its schema.
const (
	DriveStateDir    = "drives"
	DriveStateSchema = "drivebench/drive-state/v1"
)

// DriveState is what the run knows about a drive's contents: which drive
// it is, which preconditions it has been through in this run, and
// whether a step that writes to it is under way. A resumed run compares
// it with the drive it finds, so that it never measures a drive whose
// state differs from the one the plan set up without saying so.
type DriveState struct {
	Schema   string        `json:"schema"`
	Drive    string        `json:"drive"`
	Identity DriveIdentity `json:"identity"`
	// Preconditions lists the IDs of the precondition steps (fills,
	// purges) the drive has been through in this run, in order.
	Preconditions []string `json:"preconditions,omitempty"`
	// Writing is the ID of a step that writes to the drive and has not
	// finished; a run that stops there leaves the drive in an unknown
	// state.
	Writing string    `json:"writing,omitempty"`
	Updated time.Time `json:"updated"`
}

// DriveIdentity tells one drive from another, and a drive from itself
// after something else wrote to it. For a regular file it is its device,
// inode, birth time and size, with its modification time as the mark of
// the last write; for a block device its serial, world-wide ID and
// capacity, with the kernel's count of sectors written since boot (its
// model and device number are kept for the steps' Target).
type DriveIdentity struct {
	Kind string `json:"kind"` // "file" or "block"
	Path string `json:"path"`
	Size int64  `json:"size"`

	// Device is a file's file system device, or a block device's own.
	Device     uint64 `json:"device,omitempty"`
	Inode      uint64 `json:"inode,omitempty"`
	BornNs     int64  `json:"born_ns,omitempty"`
	ModifiedNs int64  `json:"modified_ns,omitempty"`

	Serial string `json:"serial,omitempty"`
	WWID   string `json:"wwid,omitempty"`
	Model  string `json:"model,omitempty"`
	// BackingDevice and BackingInode are a loop device's file.
	BackingDevice  uint64 `json:"backing_device,omitempty"`
	BackingInode   uint64 `json:"backing_inode,omitempty"`
	BootID         string `json:"boot_id,omitempty"`
	SectorsWritten uint64 `json:"sectors_written,omitempty"`
}

// Target is the identity of the target a step runs on: id without the
// marks of the last write.
func (id DriveIdentity) Target() *Target {
	t := &Target{Kind: id.Kind, Path: id.Path, Size: id.Size, Inode: id.Inode, BornNs: id.BornNs, Model: id.Model, Serial: id.Serial, WWID: id.WWID}
	if id.Device != 0 {
		t.Device = devText(id.Device)
	}
	if id.BackingInode != 0 {
		t.BackingDevice, t.BackingInode = devText(id.BackingDevice), id.BackingInode
	}
	return t
}

// devText writes a device number as "major:minor".
func devText(dev uint64) string {
	return fmt.Sprintf("%d:%d", unix.Major(dev), unix.Minor(dev))
}

// SameDrive says why other is not the drive id describes, or "" when it
// is. The marks of a write (modification time, sectors written) are not
// compared: see WrittenSince.
func (id DriveIdentity) SameDrive(other DriveIdentity) string {
	var diffs []string
	if id.Kind != other.Kind {
		return fmt.Sprintf("it was a %s and is now a %s", id.Kind, other.Kind)
	}
	if id.Size != other.Size {
		diffs = append(diffs, fmt.Sprintf("its size was %d bytes and is %d", id.Size, other.Size))
	}
	switch id.Kind {
	case "file":
		if id.Device != other.Device || id.Inode != other.Inode || id.BornNs != other.BornNs {
			diffs = append(diffs, "it is another file (device, inode or creation time differ)")
		}
	case "block":
		if id.Serial != other.Serial || id.WWID != other.WWID {
			diffs = append(diffs, fmt.Sprintf("its serial or world-wide ID differs (was %q %q, is %q %q)", id.Serial, id.WWID, other.Serial, other.WWID))
		}
		if id.BackingInode != 0 && other.BackingInode != 0 && (id.BackingDevice != other.BackingDevice || id.BackingInode != other.BackingInode) {
			diffs = append(diffs, "the loop device is attached to another file")
		}
	}
	return strings.Join(diffs, "; ")
}

// WrittenSince says why the drive now described by other may have been
// written since id was taken, or "" when it cannot have been.
func (id DriveIdentity) WrittenSince(other DriveIdentity) string {
	switch id.Kind {
	case "file":
		if id.ModifiedNs != other.ModifiedNs {
			return "the file was modified after the last step of the run"
		}
	case "block":
		switch {
		case id.BootID != other.BootID:
			return "the machine has restarted since, so writes to the device since then cannot be ruled out"
		case id.SectorsWritten != other.SectorsWritten:
			return fmt.Sprintf("%d sectors were written to the device after the last step of the run", other.SectorsWritten-id.SectorsWritten)
		}
	}
	return ""
}

// WriteDriveState stores s atomically as drives/<drive>.json.
func (f *Folder) WriteDriveState(s *DriveState) error {
	dir := filepath.Join(f.Dir, DriveStateDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	s.Schema = DriveStateSchema
	if err := WriteJSONAtomic(filepath.Join(dir, s.Drive+".json"), s); err != nil {
		return fmt.Errorf("save the state of drive %s: %w", s.Drive, err)
	}
	return nil
}

// DriveState reads the stored state of a drive; nil without error when
// the folder has none (a new run, or one written before drive states).
func (f *Folder) DriveState(drive string) (*DriveState, error) {
	path := filepath.Join(f.Dir, DriveStateDir, drive+".json")
	return readOptional(path, path, DriveStateSchema, func(s *DriveState) string { return s.Schema })
}
