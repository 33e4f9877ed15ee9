package main

import (
	"crypto/rand"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/results"
	"golang.org/x/sys/unix"
)

// writeDataFile writes 8 MiB of random data to path through a new file
// renamed over it, so that path names another file (another inode).
func writeDataFile(t *testing.T, path string) uint64 {
	t.Helper()
	data := make([]byte, 8<<20)
	rand.Read(data)
	if err := os.WriteFile(path+".new", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Sys().(*syscall.Stat_t).Ino
}

// loopChangeFD is LOOP_CHANGE_FD, which puts another file of the same
// size behind a read-only loop device at once.
const loopChangeFD = 0x4C06

// TestSwappedTargetIsFlagged: a run killed after its first point, whose
// drive's path then names another target (the file replaced by another,
// or the loop device given another file), and resumed: the report says
// the run was measured over two runs (the first with no end, the second
// complete), names the target, by identity, that each row ran on, and
// flags the table's second row as measured on another target; the
// records and the journal hold each step's target and run.
func TestSwappedTargetIsFlagged(t *testing.T) {
	tests := []struct {
		name string
		// setup returns the drive's path and what tells the targets apart
		// (the inode of the file, or of the file behind the loop device),
		// and swap puts another target at the path.
		setup func(t *testing.T) (path string, ino uint64, swap func(t *testing.T) uint64)
	}{
		{"file replaced", func(t *testing.T) (string, uint64, func(*testing.T) uint64) {
			return "data.img", writeDataFile(t, "data.img"), func(t *testing.T) uint64 { return writeDataFile(t, "data.img") }
		}},
		{"loop device given another file", func(t *testing.T) (string, uint64, func(*testing.T) uint64) {
			testenv.Root(t, "a loop device needs root")
			ino := writeDataFile(t, "one.img")
			out, err := exec.Command("losetup", "--find", "--show", "--read-only", "one.img").Output()
			if err != nil {
				testenv.Require(t, "a loop device", "losetup: %v", err)
			}
			dev := strings.TrimSpace(string(out))
			t.Cleanup(func() { exec.Command("losetup", "-d", dev).Run() })
			return dev, ino, func(t *testing.T) uint64 {
				other := writeDataFile(t, "two.img")
				f, err := os.Open("two.img")
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				loop, err := os.Open(dev)
				if err != nil {
					t.Fatal(err)
				}
				defer loop.Close()
				if err := unix.IoctlSetInt(int(loop.Fd()), loopChangeFD, int(f.Fd())); err != nil {
					t.Fatalf("LOOP_CHANGE_FD on %s: %v", dev, err)
				}
				return other
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			path, first, swap := tt.setup(t)
			swappedTarget(t, path, first, swap)
		})
	}
}

// swappedTarget runs the case of TestSwappedTargetIsFlagged on the drive
// at path.
func swappedTarget(t *testing.T, path string, first uint64, swap func(*testing.T) uint64) {
	plan := "drive \"f\" {\n  path = \"" + path + "\"\n}\n\nprofile \"read\" {\n  rw      = \"randread\"\n  bs      = \"4KiB\"\n  runtime = \"200ms\"\n  sweep {\n    iodepth = [1, 2]\n  }\n}\n"
	os.WriteFile("a.hcl", []byte(plan), 0o644)
	if code, out, errOut := runCLI(t, "run", "-out", "D", "a.hcl"); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	folder, err := results.Open("D")
	if err != nil {
		t.Fatal(err)
	}
	second := folder.Manifest.Steps[1]
	os.Remove(folder.RecordPath(second.ID)) // as if killed before the second point
	dropRunEnd(t, "D")
	journal := readFile(t, filepath.Join("D", "journal.jsonl"))
	os.WriteFile(filepath.Join("D", "journal.jsonl"), []byte(journal[:strings.LastIndex(strings.TrimSuffix(journal, "\n"), "\n")+1]), 0o644)
	swapped := swap(t)

	if code, out, errOut := runCLI(t, "run", "-resume", "D"); code != exitOK {
		t.Fatalf("resume: exit %d\n%s%s", code, out, errOut)
	}
	recs, err := folder.Records()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		inode uint64
		run   int
	}{{first, 1}, {swapped, 2}} {
		if tg := recs[i].Target; tg == nil || max(tg.Inode, tg.BackingInode) != want.inode || tg.Size != 8<<20 || recs[i].Run != want.run {
			t.Errorf("record %d: target %+v, run %d; want inode %d, run %d", i, recs[i].Target, recs[i].Run, want.inode, want.run)
		}
	}
	if j := readFile(t, filepath.Join("D", "journal.jsonl")); !strings.Contains(j, `"run":2,"target":{"kind":`) || !strings.Contains(j, `"resumed":true`) {
		t.Errorf("the journal lacks the resumed run or the step's target:\n%s", j)
	}
	md := readFile(t, filepath.Join("D", "report.md"))
	for _, want := range []string{
		"- Measured over 2 runs (no end recorded: killed, crashed or the machine stopped, then complete); see Run history",
		"Its steps ran on 2 different targets",
		"| 2 (resumed) | ",
		"**Warning (iodepth=2):** This row ran on ",
		"inode " + itoa(int(swapped)) + ", 8MiB), the table's first row on " + path + " (",
		"inode " + itoa(int(first)) + ", 8MiB): the table's rows are not measurements of one target.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	var rep struct {
		Runs []struct {
			Outcome string `json:"outcome"`
		} `json:"runs"`
		Results []struct {
			Rows []struct {
				Target *results.Target `json:"target"`
				Flags  []string        `json:"flags"`
			} `json:"rows"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join("D", "report.json"))), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2 || rep.Runs[0].Outcome != "no_end" || rep.Runs[1].Outcome != "complete" {
		t.Errorf("report.json runs %+v", rep.Runs)
	}
	rows := rep.Results[0].Rows
	if len(rows) != 2 || rows[1].Target == nil || max(rows[1].Target.Inode, rows[1].Target.BackingInode) != swapped || !slices.Contains(rows[1].Flags, "other_target") || slices.Contains(rows[0].Flags, "other_target") {
		t.Errorf("report.json rows %+v", rows)
	}
}
