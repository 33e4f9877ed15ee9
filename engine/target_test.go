package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev"
	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/engine/native"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/workload"
)

// TestTargetSmallerThanSize: an existing file smaller than the drive's
// size is refused at the start of a run, saying both sizes, instead of
// being used whole as if it had the size the plan asked for.
func TestTargetSmallerThanSize(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "small.img")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	locks := testLocks(t)
	for _, tc := range []struct {
		size int64
		want string // "" is accepted
	}{
		{2 << 20, `drive "d": ` + path + ` holds 1MiB (1048576 bytes), less than the drive's size of 2MiB; give size = "1MiB" or less`},
		{1 << 20, ""},
		{512 << 10, ""},
		{0, ""},
	} {
		d := &plan.Drive{Name: "d", Path: path, Size: tc.size, Writable: true}
		tg, err := resolveTarget(d, dir, true, true, locks)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("size %d: %v", tc.size, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("size %d: got %v, want %q", tc.size, err, tc.want)
		case tc.want == "" && tg.io.Capacity != min(max(tc.size, 0), 1<<20) && tc.size != 0:
			t.Errorf("size %d: capacity %d", tc.size, tg.io.Capacity)
		}
	}
}

// TestTargetDeletedDuringStep: a target file deleted while a step runs on
// it fails that step with the reason (the figures are of an unlinked
// file), and the step after fails too, instead of both reporting ok.
func TestTargetDeletedDuringStep(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.img")
	if err := os.WriteFile(target, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	planFile := filepath.Join(dir, "plan.hcl")
	src := `drive "f" {
  path = "` + target + `"
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "300ms"
  sweep {
    iodepth = [1, 2]
  }
}
`
	if err := os.WriteFile(planFile, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, g := load(t, planFile, nil)
	observe := func(e Event) { // a live sample comes once the file is open and measured
		if e.Kind == StepLive && e.Index == 0 {
			os.Remove(target)
		}
	}
	out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(dir, "out"), Observe: observe})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Records) < 2 {
		t.Fatalf("%d records", len(out.Records))
	}
	first := out.Records[0]
	if first.Status != "failed" || !strings.Contains(first.Error, target+" was deleted while the step ran") {
		t.Errorf("step during the deletion: %s %q", first.Status, first.Error)
	}
	if out.Records[1].Status != "failed" {
		t.Errorf("step after the deletion: %s %q", out.Records[1].Status, out.Records[1].Error)
	}
}

// TestPlannedTargetMatchesARun: the target export describes is the one a
// run resolves, without creating anything.
func TestPlannedTargetMatchesARun(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.img")
	os.WriteFile(big, make([]byte, 1<<20), 0o644)
	empty := filepath.Join(dir, "empty.img")
	os.WriteFile(empty, nil, 0o644)
	bigBlock, err := blockdev.FileDirectAlignment(big)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		drive    plan.Drive
		path     string
		capacity int64
		err      string
	}{
		{"scratch", plan.Drive{Name: "s", Size: 4 << 20}, filepath.Join(dir, "out", "scratch-s.img"), 4 << 20, ""},
		{"scratch without a size", plan.Drive{Name: "s"}, "", 0, "needs a size"},
		{"file capped by the plan", plan.Drive{Name: "f", Path: big, Size: 64 << 10}, big, 64 << 10, ""},
		{"file sized by itself", plan.Drive{Name: "f", Path: big}, big, 1 << 20, ""},
		{"file to create", plan.Drive{Name: "n", Path: filepath.Join(dir, "new.img"), Size: 8192}, filepath.Join(dir, "new.img"), 8192, ""},
		{"empty file", plan.Drive{Name: "e", Path: empty}, "", 0, "is empty"},
		{"directory drive", plan.Drive{Name: "d", Directory: filepath.Join(dir, "fs"), Size: 4096}, filepath.Join(dir, "fs", "drivebench-d.img"), 4096, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PlannedTarget(&tt.drive, filepath.Join(dir, "out"))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			block := 4096 // of a file the run creates
			if tt.path == big {
				block = bigBlock
			}
			if err != nil || got.Path != tt.path || got.Capacity != tt.capacity || got.LogicalBlockSize() != block {
				t.Errorf("target %+v, %v; want %s of %d bytes, aligned to %d", got, err, tt.path, tt.capacity, block)
			}
		})
	}
	for _, p := range []string{filepath.Join(dir, "out"), filepath.Join(dir, "new.img"), filepath.Join(dir, "fs")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}

// TestFileTargetDirectAlignment: a run aligns O_DIRECT on a file to the
// sector size of the disk under its file system, not to 4 KiB, and
// refuses a misfit in validate's words. Loop devices need root.
func TestFileTargetDirectAlignment(t *testing.T) {
	for _, sector := range []int{512, 4096} {
		t.Run(strconv.Itoa(sector), func(t *testing.T) {
			path := filepath.Join(blockdevtest.Ext4(t, 64<<20, "--sector-size", strconv.Itoa(sector)), "data.img")
			if err := os.WriteFile(path, make([]byte, 1<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			tg, err := resolveTarget(&plan.Drive{Name: "d", Path: path}, t.TempDir(), false, true, testLocks(t))
			if err != nil {
				t.Fatal(err)
			}
			if tg.io.BlockSize != sector || tg.facts["logical_block_size"] != strconv.Itoa(sector) {
				t.Fatalf("block size %d, facts %v; want %d", tg.io.BlockSize, tg.facts, sector)
			}
			w := workload.Workload{RW: "randread", BS: 512, IODepth: 1, NumJobs: 1, Direct: true, Bytes: 64 << 10}
			_, err = native.Engine{}.Run(context.Background(), tg.io, w, nil)
			if sector == 512 && err != nil {
				t.Errorf("bs = 512 on 512-byte sectors: %v", err)
			}
			if want := plan.DirectMisfit("bs", 512, 4096, path); sector == 4096 && (err == nil || !strings.Contains(err.Error(), want)) {
				t.Errorf("bs = 512 on 4 KiB sectors: %v, want %q", err, want)
			}
		})
	}
}

// TestRunGuardsImageFiles: a writable file that holds a file system is
// refused before any I/O unless the drive allows existing data. A file
// that a run filled holds random data, and a run after it goes ahead
// without the allowance.
func TestRunGuardsImageFiles(t *testing.T) {
	img := ext4Image(t)
	before, _ := os.ReadFile(img)
	_, err := runOn(t, img, false)
	want := `drive "d": ` + img + ` holds an ext4 filesystem; set allow_existing_data = true on the drive in the plan to overwrite it`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("run on an ext4 image: %v, want %q", err, want)
	}
	if after, _ := os.ReadFile(img); !bytes.Equal(after, before) {
		t.Fatal("a refused run changed the image")
	}
	for _, allow := range []bool{true, false} {
		if out, err := runOn(t, img, allow); err != nil || out.Failed != 0 {
			t.Fatalf("run with allow_existing_data = %v: %v", allow, err)
		}
	}
}

// TestRunRefusesMountedImage is the case of issue 25: an ext4 image file
// attached to a loop device and mounted is refused, even with
// allow_existing_data, naming the loop device and its mount point.
// Loop devices need root.
func TestRunRefusesMountedImage(t *testing.T) {
	img := ext4Image(t)
	loop, _ := blockdevtest.Attach(t, img)
	mnt := blockdevtest.Mount(t, loop, "ext4")
	out, err := runOn(t, img, true)
	want := img + " is the backing file of loop device " + loop + ", which is mounted at " + mnt + "; it is in use"
	if err == nil || !strings.Contains(err.Error(), want) || out != nil && len(out.Records) > 0 {
		t.Errorf("run on a mounted image with allow_existing_data: %v, want %q", err, want)
	}
}

// ext4Image makes a 16 MiB ext4 image file.
func ext4Image(t *testing.T) string {
	t.Helper()
	testenv.Command(t, "mkfs.ext4", "e2fsprogs")
	img := filepath.Join(t.TempDir(), "ext4.img")
	if err := os.WriteFile(img, make([]byte, 16<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4: %v: %s", err, out)
	}
	return img
}

// runOn runs testdata/small.hcl (a fill and reads) on the file.
func runOn(t *testing.T, file string, allowExistingData bool) (*Outcome, error) {
	t.Helper()
	p, g := load(t, "testdata/small.hcl", map[string]string{"target": file})
	p.Drives[0].AllowExistingData = allowExistingData
	return Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
}

// TestValidateTargets: validate refuses what the run would (a loop device
// holding ext4, a file attached to it), and leaves a target another run
// holds to the run, whose lock names the holder, rather than report the
// holder's exclusive open as an anonymous "busy". Loop devices need root.
func TestValidateTargets(t *testing.T) {
	img := ext4Image(t)
	loop, _ := blockdevtest.Attach(t, img)
	for _, tc := range []struct {
		name, path, want string
	}{
		{"device", loop, "Drive Holds Data: Drive \"d\": " + loop + " holds an ext4 filesystem"},
		{"its backing file", img, "Drive Holds Data: Drive \"d\": " + img + " is the backing file of loop device " + loop + " (losetup --detach " + loop + " frees it) and holds an ext4 filesystem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, g := lockPlan(t, tc.path, true, "")
			if diags := ValidateTargets(p, g); len(diags) != 1 || !strings.HasPrefix(diags[0].Summary+": "+diags[0].Detail, tc.want) {
				t.Errorf("diagnostics %v, want one starting %q", diags, tc.want)
			}
			holdTarget(t, tc.path, &plan.Drive{Name: "w", Writable: true})
			if diags := ValidateTargets(p, g); len(diags) != 0 {
				t.Errorf("held by another run: %v, want none (the run names the holder)", diags)
			}
		})
	}
}

// TestRunRefusesMisalignedScratch: 512-byte O_DIRECT reads of a scratch
// file on a disk of 4 KiB sectors, which validate cannot see (the file is
// made in the results folder), are refused before the first step in
// validate's words, not failed step by step. Loop devices need root.
func TestRunRefusesMisalignedScratch(t *testing.T) {
	mnt := blockdevtest.Ext4(t, 64<<20, "--sector-size", "4096")
	planFile := filepath.Join(t.TempDir(), "plan.hcl")
	src := `drive "s" {
  size     = "4MiB"
  writable = true
}

profile "small" {
  rw      = "randread"
  direct  = true
  runtime = "100ms"
  sweep {
    bs = ["512", "1KiB", "4KiB"]
  }
}
`
	if err := os.WriteFile(planFile, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, g := load(t, planFile, nil)
	dir := filepath.Join(mnt, "out")
	out, err := Run(context.Background(), p, g, Options{Dir: dir})
	scratch := filepath.Join(dir, "scratch-s.img")
	for _, want := range []string{plan.DirectMisfit("bs", 512, 4096, scratch), plan.DirectMisfit("bs", 1024, 4096, scratch)} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("run: %v, want %q", err, want)
		}
	}
	if out != nil && len(out.Records) > 0 {
		t.Errorf("%d steps ran", len(out.Records))
	}
	if strings.Count(fmt.Sprint(err), "O_DIRECT") != 2 {
		t.Errorf("want one refusal per misfit, got %v", err)
	}
}
