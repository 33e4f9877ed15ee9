package engine

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/drivebench/drivebench/blockdev"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
	"golang.org/x/sys/unix"
)

// A step's result depends on the state the steps before it left the
// drive in. The runner keeps that state in drives/<drive>.json: which
// drive it is, the preconditions it has been through and whether a
// writing step is under way. A resumed run that finds another drive, a
// new scratch file, a writing step cut short or a drive written since
// runs the preconditions the remaining steps depend on again and says so.

// identify describes the drive a target is now.
func identify(t *target) (results.DriveIdentity, error) {
	if t.facts["type"] == "block" {
		return blockIdentity(t)
	}
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, t.io.Path, 0, unix.STATX_BASIC_STATS|unix.STATX_BTIME, &st); err != nil {
		return results.DriveIdentity{}, fmt.Errorf("drive %q: %w", t.drive.Name, err)
	}
	id := results.DriveIdentity{
		Kind: "file", Path: t.io.Path, Size: int64(st.Size),
		Device: unix.Mkdev(st.Dev_major, st.Dev_minor), Inode: st.Ino,
		ModifiedNs: st.Mtime.Sec*1e9 + int64(st.Mtime.Nsec),
	}
	if st.Mask&unix.STATX_BTIME != 0 {
		id.BornNs = st.Btime.Sec*1e9 + int64(st.Btime.Nsec)
	}
	return id, nil
}

func blockIdentity(t *target) (results.DriveIdentity, error) {
	b, err := blockdev.BlockInfo(t.io.Path)
	if err != nil {
		return results.DriveIdentity{}, fmt.Errorf("drive %q: %w", t.drive.Name, err)
	}
	serial := t.facts["serial"]
	if serial == "" {
		serial = b.Serial
	}
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return results.DriveIdentity{
		Kind: "block", Path: t.io.Path, Size: b.Size, Serial: serial, WWID: b.WWID, Model: b.Model,
		Device: unix.Mkdev(b.Major, b.Minor), BackingDevice: b.BackingDevice, BackingInode: b.BackingInode,
		BootID: strings.TrimSpace(string(boot)), SectorsWritten: b.SectorsWritten,
	}, nil
}

// loadDriveStates compares each drive with the state the results folder
// recorded for it, and decides which preconditions must run again.
func (r *runner) loadDriveStates() error {
	r.states, r.redo = map[string]*results.DriveState{}, map[string]string{}
	for _, d := range r.plan.Drives {
		t := r.targets[d.Name]
		if t == nil || !doesIO(r.graph, d.Name) {
			continue
		}
		id, err := identify(t)
		if err != nil {
			return err
		}
		prev, err := r.folder.DriveState(d.Name)
		if err != nil {
			return err
		}
		st := &results.DriveState{Drive: d.Name, Identity: id, Updated: time.Now().UTC()}
		reason := r.stateLost(d.Name, t, prev, id)
		if reason == "" && prev != nil {
			st.Preconditions = prev.Preconditions
		}
		if reason != "" && r.markRedo(d.Name) {
			r.redo[d.Name] = reason
		}
		r.states[d.Name] = st
		if err := r.folder.WriteDriveState(st); err != nil {
			return r.saveError(err)
		}
	}
	return nil
}

// stateLost says why the drive's state is not the one the recorded steps
// left it in, or "" when it is (or nothing was recorded on it yet).
func (r *runner) stateLost(drive string, t *target, prev *results.DriveState, id results.DriveIdentity) string {
	if prev == nil {
		if r.donePreconditions(drive) {
			return "the results folder holds finished preconditions of this drive but no record of the drive's state"
		}
		return ""
	}
	if t.created {
		if t.scratch {
			return fmt.Sprintf("the scratch file %s was gone, so a new, never-written one was made", t.io.Path)
		}
		return fmt.Sprintf("the file %s was gone, so a new, never-written one was made", t.io.Path)
	}
	if diff := prev.Identity.SameDrive(id); diff != "" {
		return "it is not the drive the earlier steps ran on: " + diff
	}
	if prev.Writing != "" {
		name := prev.Writing
		if n := r.graph.Node(prev.Writing); n != nil {
			name = n.Name
		}
		return fmt.Sprintf("step %s, which writes to it, was cut short", name)
	}
	return prev.Identity.WrittenSince(id)
}

// donePreconditions reports whether the folder holds a complete record of
// a precondition of the drive.
func (r *runner) donePreconditions(drive string) bool {
	for _, n := range r.graph.Nodes {
		if n.Drive == drive && n.Kind == plan.KindPrecondition {
			if rec, err := r.folder.ReadRecord(n.ID); err == nil && rec.Status == results.StatusOK {
				return true
			}
		}
	}
	return false
}

// markRedo reports whether any step of the drive is still to run, so that
// the preconditions it depends on must run again.
func (r *runner) markRedo(drive string) bool {
	for _, n := range r.graph.Nodes {
		if n.Drive != drive || !doesDriveIO(n) {
			continue
		}
		if rec, err := r.folder.ReadRecord(n.ID); err != nil || rec.Status != results.StatusOK {
			return true
		}
	}
	return false
}

// doesDriveIO reports whether a node does I/O on its drive or depends on
// what is on it.
func doesDriveIO(n *plan.Node) bool {
	return n.Workload != nil || n.PurgeMethod != "" || n.Exec != nil || n.Kind == plan.KindAdaptive
}

// writesDrive reports whether a node changes what is on its drive.
func writesDrive(n *plan.Node) bool {
	return n.Workload != nil && n.Workload.Writes() || n.PurgeMethod != "" || n.Exec != nil
}

// rerunReason says why a precondition whose record is complete must run
// again, or "": its drive's state was lost and a step still to run after
// it depends on it.
func (r *runner) rerunReason(n *plan.Node) string {
	reason := r.redo[n.Drive]
	if reason == "" || n.Kind != plan.KindPrecondition {
		return ""
	}
	seen := false
	for _, m := range r.graph.Nodes {
		if m == n {
			seen = true
			continue
		}
		if !seen || m.Drive != n.Drive || !doesDriveIO(m) || m.Kind == plan.KindPrecondition {
			continue
		}
		if n.Before != "" && n.Before != m.Source {
			continue
		}
		if rec, err := r.folder.ReadRecord(m.ID); err != nil || rec.Status != results.StatusOK {
			return reason
		}
	}
	return ""
}

// beginStep records the state the drive is in as the step starts, and
// the target it runs on, and marks a writing step as under way.
func (r *runner) beginStep(n *plan.Node, rec *results.Record) error {
	st := r.states[n.Drive]
	if st == nil || !doesDriveIO(n) {
		return nil
	}
	rec.DriveState = &results.StepDriveState{}
	if id, err := identify(r.targets[n.Drive]); err == nil {
		rec.Target = id.Target()
	}
	for _, id := range st.Preconditions {
		if p := r.graph.Node(id); p != nil {
			rec.DriveState.Preconditions = append(rec.DriveState.Preconditions, p.Name)
		}
	}
	if st.Writing != "" && n.Kind != plan.KindPrecondition {
		rec.Warnings = append(rec.Warnings, results.Warning{Kind: results.WarnDriveState, Message: fmt.Sprintf(
			"An earlier step that writes to drive %s did not finish, so the drive is not in the state the plan set up.", n.Drive)})
	}
	if !writesDrive(n) {
		return nil
	}
	st.Writing = n.ID
	return r.saveDriveState(n.Drive)
}

// endStep records how the step left the drive: a finished writing step
// clears the mark it set, and a finished precondition joins the list.
func (r *runner) endStep(n *plan.Node, rec *results.Record) error {
	st := r.states[n.Drive]
	if st == nil || !doesDriveIO(n) {
		return nil
	}
	if rec.Status == results.StatusSkipped && st.Writing == n.ID {
		st.Writing = ""
	}
	if rec.Status != results.StatusOK {
		return r.saveDriveState(n.Drive)
	}
	if st.Writing == n.ID {
		st.Writing = ""
	}
	if n.Kind == plan.KindPrecondition {
		if n.PurgeMethod != "" {
			st.Preconditions = nil
		}
		st.Preconditions = append(st.Preconditions, n.ID)
	}
	return r.saveDriveState(n.Drive)
}

// saveDriveState refreshes the drive's identity (its marks of the last
// write) and stores its state.
func (r *runner) saveDriveState(drive string) error {
	st := r.states[drive]
	if id, err := identify(r.targets[drive]); err == nil {
		st.Identity = id
	}
	st.Updated = time.Now().UTC()
	if err := r.folder.WriteDriveState(st); err != nil {
		return r.saveError(err)
	}
	return nil
}

// checkHoles measures the share of a read step's region that was never
// written, on a regular file: reads there return zeros from the file
// system without touching the drive.
func (r *runner) checkHoles(n *plan.Node, rec *results.Record) {
	t := r.targets[n.Drive]
	w := n.Workload
	if t == nil || w == nil || rec.DriveState == nil || t.facts["type"] == "block" || w.RW == "write" || w.RW == "randwrite" {
		return
	}
	start, length := readRegion(t.io.Capacity, w)
	unwritten, err := plan.UnwrittenBytes(t.io.Path, start, length)
	if err != nil || length <= 0 {
		return
	}
	pct := 100 * float64(unwritten) / float64(length)
	rec.DriveState.UnwrittenPct = &pct
	if unwritten == 0 {
		return
	}
	rec.Warnings = append(rec.Warnings, results.Warning{Kind: results.WarnUnwritten, Message: fmt.Sprintf(
		"%s of the region this step reads had never been written: reads there return zeros from the file system without reaching the drive, so these figures measure the file system, not the drive. Add a fill precondition before this profile.",
		format.UpperFirst(format.Share(pct)))})
}

// checkFileSystem records the type of the file system that holds a file
// drive's file, and warns when it lives in memory: tmpfs takes O_DIRECT,
// and its figures then look like a drive's but are memory's.
func (r *runner) checkFileSystem(n *plan.Node, rec *results.Record) {
	t := r.targets[n.Drive]
	if t == nil || n.Workload == nil || t.facts["type"] == "block" {
		return
	}
	fs, err := blockdev.Host.FileSystemOf(t.io.Path)
	if fs.Type == "" {
		return
	}
	if rec.DriveState != nil {
		rec.DriveState.FileSystem = fs.Type
	}
	if err != nil || !fs.Memory {
		return
	}
	io := "its I/O copies memory"
	if n.Workload.Direct {
		io = "its O_DIRECT I/O copies memory"
	}
	rec.Warnings = append(rec.Warnings, results.Warning{Kind: results.WarnMemoryFS, Message: fmt.Sprintf(
		"The file this step runs on is on %s, which keeps its files in memory: %s and reaches no drive, so these figures are memory speed, not a drive's. Put the file on a file system of the drive under test.",
		fs.Type, io)})
}

// readRegion is the byte range a workload covers on a target of the given
// capacity.
func readRegion(capacity int64, w *workload.Workload) (start, length int64) {
	start = w.Offset
	switch {
	case w.Size > 0:
		length = w.Size
	case w.SizePct > 0:
		length = int64(float64(capacity) * w.SizePct / 100)
	default:
		length = capacity - start
	}
	return start, min(length, capacity-start)
}
