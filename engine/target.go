package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/drivebench/drivebench/blockdev"
	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"golang.org/x/sys/unix"
)

// target is a drive resolved for this run.
type target struct {
	drive   *plan.Drive
	io      driver.Target
	scratch bool
	facts   map[string]string
	// workDir is the folder exec steps run in: the drive's directory, or
	// work-<drive> in the results folder; removeWorkDir is set for a
	// scratch drive's, which goes with the drive.
	workDir       string
	removeWorkDir bool
	// madeDir is set when the run created a directory drive's folder.
	madeDir bool
	// created is set when the run made the drive's file: it holds no data
	// that earlier steps wrote.
	created bool
	// id is the device and inode of the file or device node steps run on,
	// zero when not known (see gone).
	id fileID
	// lock is the run's lock on the file, device or folder (targetlock.go),
	// nil for a drive the run makes nothing for; claimPath is set for a
	// writable block device, which the run claims while its own I/O
	// steps run (claim).
	lock      *targetLock
	claimPath string
	claim     *os.File
}

// fileID names a file independently of its path.
type fileID struct{ dev, ino uint64 }

// identify records which file or device the target's path is now.
func (t *target) identify() {
	var st unix.Stat_t
	if t.io.Path != "" && unix.Stat(t.io.Path, &st) == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
		t.id = fileID{uint64(st.Dev), st.Ino}
	}
}

// gone says, after a step, when the target's path no longer leads to the
// file the run started with: deleted or replaced while the run went on, so
// the step's figures are of a file that is no longer the drive the plan
// names. "" when it is still there.
func (t *target) gone() string {
	if t.id == (fileID{}) {
		return ""
	}
	var st unix.Stat_t
	switch err := unix.Stat(t.io.Path, &st); {
	case errors.Is(err, unix.ENOENT):
		return fmt.Sprintf("%s was deleted while the step ran: the figures are of a file that no longer exists, not of the drive", t.io.Path)
	case err != nil:
		return fmt.Sprintf("%s cannot be checked after the step: %v", t.io.Path, err)
	case (fileID{uint64(st.Dev), st.Ino}) != t.id:
		return fmt.Sprintf("%s was replaced while the step ran: the figures are of the file it was before, not of the drive", t.io.Path)
	}
	return ""
}

// writes reports whether any step of g writes to the drive. An exec step
// may, so it counts as writing, and so does a step on a file set, which
// creates its files.
func writes(g *plan.Graph, drive string) bool {
	for _, n := range g.Nodes {
		if n.Drive == drive && (n.Workload != nil && (n.Workload.Writes() || n.Workload.IsFileSet()) || n.Exec != nil) {
			return true
		}
	}
	return false
}

// doesIO reports whether any step of g does I/O on the drive itself (a
// precondition, a profile or a purge), as opposed to exec steps only and
// steps on file sets, which do theirs in a folder of the drive.
func doesIO(g *plan.Graph, drive string) bool {
	for _, n := range g.Nodes {
		if n.Drive == drive && (n.Workload != nil && !n.Workload.IsFileSet() || n.PurgeMethod != "") {
			return true
		}
	}
	return false
}

// usesFileSets reports whether any step of g runs on a file set on the
// drive.
func usesFileSets(g *plan.Graph, drive string) bool {
	for _, n := range g.Nodes {
		if n.Drive == drive && n.Workload != nil && n.Workload.IsFileSet() {
			return true
		}
	}
	return false
}

// setRoot is the folder a drive's file sets are made in, one subfolder
// per set (workload.Workload.FileSetName): drivebench's own folder in the drive's
// directory, or in a scratch drive's work folder in the results folder,
// so that removing it removes nothing else. "" for a drive that is a
// device or a file, which holds no file set.
func (t *target) setRoot() string {
	if t.drive.Path != "" || t.workDir == "" {
		return ""
	}
	return filepath.Join(t.workDir, "drivebench-files-"+t.drive.Name)
}

// PlannedSetRoot is the folder a run of d would make its file sets in
// (setRoot), found without creating anything, for export fio: in the
// drive's directory, or in the work folder of a scratch drive in the
// results folder dir; an error for a drive that is a device or a file.
func PlannedSetRoot(d *plan.Drive, dir string) (driver.Target, error) {
	workDir := d.Directory
	if d.Directory == "" {
		workDir = filepath.Join(dir, "work-"+d.Name)
	}
	return (&target{drive: d, workDir: workDir}).setTarget()
}

// setTarget is the target a file-set step of the drive runs on: its set
// root, which the engine makes the step's set in.
func (t *target) setTarget() (driver.Target, error) {
	root := t.setRoot()
	if root == "" {
		return driver.Target{}, fmt.Errorf("drive %q is a device or a file, and a file set needs a folder: use a drive with directory = \"...\", or a scratch drive (no path)", t.drive.Name)
	}
	return driver.Target{Path: root, BlockSize: t.io.BlockSize}, nil
}

// resolveTarget finds or creates the drive's file or device, locks it
// (locks) and checks that the run may use it as the plan says. A drive
// that only exec steps use gets no file.
func resolveTarget(d *plan.Drive, dir string, willWrite, io bool, locks *targetLocks) (*target, error) {
	if willWrite && !d.Writable {
		return nil, fmt.Errorf("drive %q: the plan writes to it but it is not marked writable; add writable = true to the drive block if its data may be destroyed", d.Name)
	}
	if d.Directory != "" {
		return directoryTarget(d, io, locks)
	}
	if d.Path == "" && !io {
		workDir := filepath.Join(dir, "work-"+d.Name)
		return &target{drive: d, io: driver.Target{Path: workDir, Capacity: d.Size},
			facts: map[string]string{"type": "directory"}, workDir: workDir, removeWorkDir: true}, nil
	}
	if d.Path == "" {
		return scratchTarget(d, dir, locks)
	}
	info, err := os.Stat(d.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && willWrite && d.Size > 0:
		return fileTarget(d, d.Path, true, true, locks)
	case err != nil:
		return nil, fmt.Errorf("drive %q: %w", d.Name, err)
	case info.Mode()&fs.ModeDevice != 0:
		return deviceTarget(d, willWrite, locks)
	case info.Mode().IsRegular():
		return fileTarget(d, d.Path, false, willWrite, locks)
	}
	return nil, fmt.Errorf("drive %q: %s is neither a regular file nor a block device", d.Name, d.Path)
}

// scratchPath is the file a scratch drive is, in the results folder dir.
func scratchPath(dir, drive string) string { return filepath.Join(dir, "scratch-"+drive+".img") }

// directoryFile is the file a directory drive's I/O steps run on.
func directoryFile(d *plan.Drive) string {
	return filepath.Join(d.Directory, "drivebench-"+d.Name+".img")
}

// usable is how much of a file or device of the given size the drive
// uses: the plan's size when it gives a smaller one.
func usable(d *plan.Drive, size int64) int64 {
	if d.Size > 0 && d.Size < size {
		return d.Size
	}
	return size
}

// PlannedTarget is the target a run of d would use, found without
// creating, allocating or checking anything, for `export fio`: a scratch
// or directory drive is the file a run would create (in dir for a scratch
// drive), at the plan's size; a file or block device is sized as a run
// sizes it, a device with its logical block size. It is resolveTarget
// without its side effects, so an exported job file and a run agree.
func PlannedTarget(d *plan.Drive, dir string) (driver.Target, error) {
	planned := func(path string) (driver.Target, error) {
		if d.Size <= 0 {
			return driver.Target{}, fmt.Errorf("drive %q: a drive drivebench creates needs a size", d.Name)
		}
		return driver.Target{Path: path, Capacity: d.Size, BlockSize: 4096}, nil
	}
	switch {
	case d.Directory != "":
		return planned(directoryFile(d))
	case d.Path == "":
		return planned(scratchPath(dir, d.Name))
	}
	info, err := os.Stat(d.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && d.Size > 0:
		return planned(d.Path)
	case err != nil:
		return driver.Target{}, fmt.Errorf("drive %q: %w; give the drive a size", d.Name, err)
	case info.Mode()&fs.ModeDevice != 0:
		bi, err := blockdev.BlockInfo(d.Path)
		if err != nil {
			return driver.Target{}, fmt.Errorf("drive %q: %w", d.Name, err)
		}
		return driver.Target{Path: d.Path, Capacity: usable(d, bi.Size), BlockSize: bi.LogicalBlockSize}, nil
	case info.Mode().IsRegular() && usable(d, info.Size()) > 0:
		return driver.Target{Path: d.Path, Capacity: usable(d, info.Size()), BlockSize: fileBlockSize(d.Path)}, nil
	case info.Mode().IsRegular():
		return driver.Target{}, fmt.Errorf("drive %q: %s is empty; give the drive a size", d.Name, d.Path)
	}
	return driver.Target{}, fmt.Errorf("drive %q: %s is neither a regular file nor a block device", d.Name, d.Path)
}

// scratchTarget creates the drive as a file in the results folder; its
// exec steps run in work-<drive> there, removed with the file.
func scratchTarget(d *plan.Drive, dir string, locks *targetLocks) (*target, error) {
	if d.Size <= 0 {
		return nil, fmt.Errorf("drive %q: a scratch drive (empty path) needs a size", d.Name)
	}
	t, err := fileTarget(d, scratchPath(dir, d.Name), true, true, locks)
	if err != nil {
		return nil, err
	}
	t.scratch = true
	t.workDir, t.removeWorkDir = filepath.Join(dir, "work-"+d.Name), true
	return t, nil
}

// directoryTarget uses a folder on the file system under test, creating
// it if needed: exec steps run in it, and I/O steps on a file of the
// drive's size in it, removed after the run.
func directoryTarget(d *plan.Drive, io bool, locks *targetLocks) (*target, error) {
	_, err := os.Stat(d.Directory)
	made := errors.Is(err, fs.ErrNotExist)
	if err := os.MkdirAll(d.Directory, 0o755); err != nil {
		return nil, fmt.Errorf("drive %q: %w", d.Name, err)
	}
	if !io {
		lock, err := locks.lock(d, d.Directory, false)
		if err != nil {
			return nil, err
		}
		return &target{drive: d, io: driver.Target{Path: d.Directory, Capacity: d.Size},
			facts: directoryFacts(d.Directory), workDir: d.Directory, madeDir: made, lock: lock}, nil
	}
	if d.Size <= 0 {
		return nil, fmt.Errorf("drive %q: a directory drive needs a size for the file its profiles run on", d.Name)
	}
	t, err := fileTarget(d, directoryFile(d), true, true, locks)
	if err != nil {
		return nil, err
	}
	t.scratch, t.workDir, t.madeDir = true, d.Directory, made
	for k, v := range directoryFacts(d.Directory) {
		t.facts[k] = v
	}
	return t, nil
}

// directoryFacts describes the file system a directory drive is on.
func directoryFacts(dir string) map[string]string {
	facts := map[string]string{"type": "directory"}
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) == nil {
		facts["filesystem_block_size"] = strconv.FormatInt(st.Bsize, 10)
		facts["filesystem_type"] = "0x" + strconv.FormatInt(int64(st.Type), 16)
	}
	return facts
}

// fileTarget uses a regular file, creating it at the drive's size when
// create is set. The space is allocated up front so a fill cannot run out
// of room half way and O_DIRECT writes need no block allocation. The file
// is locked before anything is done to it. A file that is there already
// is then checked when the run will write to it (willWrite), even one an
// earlier run of the folder made: what it holds is known only by looking.
func fileTarget(d *plan.Drive, path string, create, willWrite bool, locks *targetLocks) (_ *target, err error) {
	old, statErr := os.Stat(path)
	created := create && errors.Is(statErr, fs.ErrNotExist)
	lock, err := locks.lock(d, path, create)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			locks.release(lock)
		}
	}()
	if statErr == nil && willWrite {
		if err := guard(d, path); err != nil {
			return nil, fmt.Errorf("drive %q: %w", d.Name, err)
		}
	}
	// A file an earlier run of the folder made is kept as it is: its
	// space is allocated, and allocating again would mark it as written.
	if create && (statErr != nil || old.Size() < d.Size) {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("drive %q: create %s: %w", d.Name, path, err)
		}
		err = unix.Fallocate(int(f.Fd()), 0, 0, d.Size)
		if errors.Is(err, unix.EOPNOTSUPP) {
			err = f.Truncate(d.Size)
		}
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("drive %q: allocate %d bytes for %s: %w", d.Name, d.Size, path, err)
		}
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("drive %q: %w", d.Name, err)
	}
	if err := checkFits(d, path, info.Size(), "does not grow a file it did not create"); err != nil {
		return nil, err
	}
	capacity := usable(d, info.Size())
	if capacity == 0 {
		return nil, fmt.Errorf("drive %q: %s is empty; give the drive a size so drivebench can allocate it", d.Name, path)
	}
	facts := map[string]string{"type": "file"}
	var st unix.Statfs_t
	if unix.Statfs(filepath.Dir(path), &st) == nil {
		facts["filesystem_block_size"] = strconv.FormatInt(st.Bsize, 10)
	}
	block := fileBlockSize(path)
	if block > 0 {
		facts["logical_block_size"] = strconv.Itoa(block)
	}
	return &target{drive: d, io: driver.Target{Path: path, Capacity: capacity, BlockSize: block}, facts: facts, created: created, lock: lock}, nil
}

// fileBlockSize is the alignment O_DIRECT needs on a file, as validate
// reads it; 0 (4096 is assumed) when it cannot be known.
func fileBlockSize(path string) int {
	n, err := blockdev.FileDirectAlignment(path)
	if err != nil {
		return 0
	}
	return n
}

// checkFits refuses a file or device smaller than the drive's size, which
// would otherwise be used whole and reported as if it were the size the
// plan asked for.
func checkFits(d *plan.Drive, path string, have int64, why string) error {
	if d.Size <= 0 || d.Size <= have {
		return nil
	}
	return fmt.Errorf("drive %q: %s holds %s (%d bytes), less than the drive's size of %s; give size = %q or less, "+
		"or leave size out to use all of it (drivebench %s)",
		d.Name, path, workload.FormatSize(have), have, workload.FormatSize(d.Size), workload.FormatSize(have), why)
}

// deviceTarget uses a block device, refusing one that holds data unless
// the plan allows it. It is locked before it is checked, so that a run
// holding it is named rather than found busy; a device the run writes is
// then claimed.
func deviceTarget(d *plan.Drive, willWrite bool, locks *targetLocks) (_ *target, err error) {
	lock, err := locks.lock(d, d.Path, false)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			locks.release(lock)
		}
	}()
	info, err := blockdev.BlockInfo(d.Path)
	if err != nil {
		return nil, fmt.Errorf("drive %q: %w", d.Name, err)
	}
	if willWrite {
		if err := guard(d, d.Path); err != nil {
			return nil, fmt.Errorf("drive %q: %w", d.Name, err)
		}
	}
	if err := checkFits(d, d.Path, info.Size, "cannot make a device larger"); err != nil {
		return nil, err
	}
	t := &target{drive: d, io: driver.Target{Path: d.Path, Capacity: usable(d, info.Size), BlockSize: info.LogicalBlockSize},
		facts: info.Facts(), lock: lock}
	if willWrite {
		t.claimPath = d.Path
		if err := t.claimDevice(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// guard checks the block device or file at path before drive d writes to
// it: one in use (mounted, swap, held by md, dm or LVM, or the backing
// file of a loop device that is) is refused in every case, one that
// merely holds data (a partition table, filesystem, LVM or RAID
// signature, an idle loop device on it) unless the plan allows it.
func guard(d *plan.Drive, path string) error {
	check := blockdev.CheckFileWritable
	if blockdev.IsBlockDevice(path) {
		check = blockdev.CheckWritable
	}
	err := check(path)
	var unsafe *blockdev.UnsafeError
	if d.AllowExistingData && errors.As(err, &unsafe) && !unsafe.InUse {
		return nil
	}
	return err
}

// checkDirectFit refuses, before the first I/O, a run with an O_DIRECT
// step whose transfer sizes or offset are not multiples of the logical
// block size of the target it runs on, in validate's words: validate
// checks the same where it sees the target, but a scratch file, or a
// drive a variable names, is known only now. Left to the steps, each
// such step would fail on its own.
func (r *runner) checkDirectFit() error {
	var errs []error
	said := map[string]bool{}
	for _, n := range r.graph.Nodes {
		w, t := n.Workload, r.targets[n.Drive]
		if w == nil || !w.Direct || t == nil {
			continue
		}
		block := int64(t.io.LogicalBlockSize())
		field, sizes := "bs", []int64{w.BS}
		if len(w.BSSplit) > 0 {
			field, sizes = "bs_split", nil
			for _, sw := range w.BSSplit {
				sizes = append(sizes, sw.Size)
			}
		}
		var misfits []string
		for _, size := range sizes {
			if size%block != 0 {
				misfits = append(misfits, plan.DirectMisfit(field, size, block, t.io.Path))
			}
		}
		if w.Offset%block != 0 {
			misfits = append(misfits, plan.DirectMisfit("offset", w.Offset, block, t.io.Path))
		}
		for _, m := range misfits {
			if !said[m] {
				said[m] = true
				errs = append(errs, fmt.Errorf("drive %q, step %q: %s", n.Drive, n.Name, m))
			}
		}
	}
	return errors.Join(errs...)
}

// ValidateTargets reports, before anything runs, each drive the plan
// writes to whose device or file is there and that the run would refuse
// (guard), at the drive's block. Each target is locked for its check as a
// run locks it: one another run holds is busy for that reason, and the
// run, refused by the lock, names the holder. What cannot be checked yet
// (a device drivebench may not open without root) is left to the run,
// which checks again.
func ValidateTargets(p *plan.Plan, g *plan.Graph) hcl.Diagnostics {
	locks, err := newTargetLocks("")
	if err == nil {
		defer locks.releaseAll()
	}
	var diags hcl.Diagnostics
	for _, d := range p.Drives {
		if d.Path == "" || !d.Writable || !writes(g, d.Name) {
			continue
		}
		if _, err := os.Stat(d.Path); err != nil {
			continue
		}
		if locks != nil {
			if _, err := locks.lock(d, d.Path, false); err != nil {
				continue
			}
		}
		var unsafe *blockdev.UnsafeError
		if err := guard(d, d.Path); errors.As(err, &unsafe) {
			summary := "Drive Holds Data"
			if unsafe.InUse {
				summary = "Drive In Use"
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  summary,
				Detail:   fmt.Sprintf("Drive %q: %v.", d.Name, err),
				Subject:  d.Range.Ptr(),
			})
		}
	}
	return diags
}

// manifestDrive describes the resolved drive for the results folder.
func (t *target) manifestDrive() results.Drive {
	d := DeclaredDrive(t.drive)
	d.Path, d.Scratch, d.Size, d.Writable, d.Facts = t.io.Path, t.scratch, t.io.Capacity, t.drive.Writable, t.facts
	return d
}
