package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/drivebench/drivebench/blockdev"
	"github.com/drivebench/drivebench/format"
)

// cmdInit writes a starter plan: a fill, a small sweep, a check and a
// report block, for the device or file named, with its size and block
// size filled in, or for a scratch file. The plan validates as written.
func cmdInit(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("init", "[TARGET]",
		"Write a commented starter plan for a block device or file (its size and block size detected), or, without\n"+
			"TARGET, for a 1 GiB scratch file. Edit it, check it with drivebench validate, run it with drivebench run.", io)
	out := fs.String("out", "plan.hcl", "the plan file to write; - for stdout")
	fs.StringVar(out, "o", "plan.hcl", "the same as -out, which every command uses")
	force := fs.Bool("force", false, "overwrite the plan file if it exists")
	args, code, done := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(args) > 1 {
		fmt.Fprintf(io.err, "drivebench init: expected at most one target, got %d arguments\n\n", len(args))
		fs.printUsage()
		return exitUsage
	}
	var t initTarget
	if len(args) == 1 {
		var err error
		if t, err = detectTarget(args[0]); err != nil {
			fmt.Fprintln(io.err, "drivebench init:", err)
			return exitUsage
		}
	}
	text := starterPlan(t)
	if *out == "-" {
		fmt.Fprint(io.out, text)
		return exitOK
	}
	if err := writeNew(*out, text, *force); err != nil {
		fmt.Fprintln(io.err, "drivebench init:", err)
		return exitUsage
	}
	fmt.Fprintf(io.out, "Wrote %s. Check it with: drivebench validate %s\n", *out, *out)
	if t.device {
		fmt.Fprintf(io.err, "drivebench init: warning: the plan marks %s writable; running it destroys the data on it\n", t.path)
	}
	return exitOK
}

// initTarget is what init learnt of the target.
type initTarget struct {
	path              string // "" for a scratch file
	device            bool
	size              int64
	logical, physical int // block sizes in bytes
}

func detectTarget(path string) (initTarget, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return initTarget{}, fmt.Errorf("%s does not exist; name a block device or an existing file, or give no target for a scratch file", path)
	}
	if err != nil {
		return initTarget{}, err
	}
	abs, _ := filepath.Abs(path)
	switch {
	case info.Mode()&os.ModeDevice != 0 && blockdev.IsBlockDevice(path):
		b, err := blockdev.BlockInfo(path)
		if err != nil {
			return initTarget{}, fmt.Errorf("%s: %w (reading a device's size needs permission to open it; try as root)", path, err)
		}
		return initTarget{path: path, device: true, size: b.Size, logical: b.LogicalBlockSize, physical: b.PhysicalBlockSize}, nil
	case info.Mode().IsRegular():
		t := initTarget{path: abs, size: info.Size()}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			t.physical = int(st.Blksize)
		}
		t.logical, _ = blockdev.FileDirectAlignment(path)
		if t.size == 0 {
			return initTarget{}, fmt.Errorf("%s is empty; give it a size first (truncate -s 1G %s), or give no target for a scratch file", path, path)
		}
		return t, nil
	}
	return initTarget{}, fmt.Errorf("%s is neither a block device nor a regular file", path)
}

// writeNew writes a file that must not exist yet, unless force.
func writeNew(path, text string, force bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists; choose another file with -o, or overwrite it with -force", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// starterPlan is the plan text for t. Block sizes of the profiles are at
// least the target's logical block size, so O_DIRECT accepts them.
func starterPlan(t initTarget) string {
	bs := max(int64(4096), int64(t.logical))
	seq := max(int64(128<<10), int64(t.logical))
	var drive string
	switch {
	case t.path == "":
		drive = `# A scratch file in the results folder stands in for a drive: nothing else is
# touched. Give a path (a block device or a file) to test something real.
drive "dut" {
  size     = "1GiB"
  writable = true
}`
	default:
		what := fmt.Sprintf("a block device of %s (%d bytes), logical block size %d bytes,\n# physical block size %d bytes.",
			format.BinaryBytes(uint64(t.size)), t.size, t.logical, t.physical)
		if !t.device {
			lbs := fmt.Sprintf("O_DIRECT transfers aligned to %d bytes", t.logical)
			if t.logical == 0 {
				lbs = "O_DIRECT alignment not known (4 KiB is assumed)"
			}
			what = fmt.Sprintf("a file of %s (%d bytes), %s,\n# file system block size %d bytes.", format.BinaryBytes(uint64(t.size)), t.size, lbs, t.physical)
		}
		drive = fmt.Sprintf(`# Detected: %s
#
# writable = true lets the plan write to it: the fill below overwrites every
# block. drivebench refuses a mounted device or a file behind one, and one
# holding a file system, a partition table, LVM or RAID, unless
# allow_existing_data = true says so.
drive "dut" {
  path     = %q
  size     = %q # all of it; a smaller size tests the start only
  writable = true
}`, what, t.path, sizeText(t.size))
	}
	return fmt.Sprintf(`# A starter plan written by drivebench init. Check it with drivebench validate,
# see every step with drivebench plan, run it with drivebench run.
# drivebench help plan prints the plan language: every block, attribute and function.

%s

# Write the whole drive once, so reads hit written blocks and not
# never-written space that a drive can answer without reading flash.
precondition "fill" {
  pattern = "sequential_write"
  bs      = %q
  iodepth = 4
  direct  = true
  passes  = 1
}

# 4K random reads over three queue depths, each measured for 10 s after a
# 2 s ramp. The expectation fails the run (exit 1) when the p99 latency at
# a point exceeds 5 ms; change the limit to what the drive should meet.
profile "random-read" {
  rw      = "randread"
  bs      = %q
  numjobs = 1
  runtime = "10s"
  ramp    = "2s"
  direct  = true

  sweep {
    iodepth = [1, 4, 16]
  }

  expect = [result.read.p99_us < 5000]
}

# Sequential writes after the reads: these leave the drive rewritten.
profile "sequential-write" {
  rw      = "write"
  bs      = %q
  iodepth = 4
  runtime = "10s"
  ramp    = "2s"
  direct  = true
}

report {
  formats = ["markdown", "json", "html"]
}
`, drive, sizeText(seq), sizeText(bs), sizeText(seq))
}

// sizeText writes a byte count as the plan language reads it: "4KiB",
// "1GiB", or a number of bytes.
func sizeText(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return fmt.Sprint(n)
}
