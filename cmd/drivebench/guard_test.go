package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/internal/testenv"
)

// TestGuardOfImageFiles: a plan that writes to an ext4 image file is
// refused by validate and by run (exit 2, the image untouched) unless the
// drive allows existing data; mounted through a loop device, it is
// refused even then, with the loop device and the mount point (loop
// devices need root). Once a run has written over it, it holds random
// data, and runs go ahead without the allowance.
func TestGuardOfImageFiles(t *testing.T) {
	testenv.Command(t, "mkfs.ext4", "e2fsprogs")
	img := filepath.Join(t.TempDir(), "ext4.img")
	if err := os.WriteFile(img, make([]byte, 16<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4: %v: %s", err, out)
	}
	planFile := func(allow bool) string {
		src := `drive "d" {
  path                = "` + img + `"
  writable            = true
  allow_existing_data = ` + map[bool]string{true: "true", false: "false"}[allow] + `
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "1MiB"
}

profile "write" {
  rw            = "randwrite"
  bs            = "4KiB"
  runtime       = "200ms"
  preconditions = ["fill"]
}
`
		p := filepath.Join(t.TempDir(), "plan.hcl")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	before, _ := os.ReadFile(img)
	refused := func(t *testing.T, name, plan, want string) {
		t.Helper()
		for _, args := range [][]string{{"validate", plan}, {"run", "-out", filepath.Join(t.TempDir(), "out"), plan}} {
			code, _, errOut := runCLI(t, args...)
			if errOut = unwrap(errOut); code != exitUsage || !strings.Contains(errOut, want) {
				t.Errorf("%s: %s: exit %d, want %d and %q in:\n%s", name, args[0], code, exitUsage, want, errOut)
			}
		}
		if after, _ := os.ReadFile(img); !bytes.Equal(after, before) {
			t.Fatalf("%s: the image changed", name)
		}
	}
	refused(t, "ext4 image", planFile(false), "Error: Drive Holds Data")
	refused(t, "ext4 image", planFile(false), img+" holds an ext4 filesystem; set allow_existing_data = true on the drive in the plan to overwrite it.")

	if os.Geteuid() == 0 {
		t.Run("mounted", func(t *testing.T) {
			loop, _ := blockdevtest.Attach(t, img)
			mnt := blockdevtest.Mount(t, loop, "ext4")
			before, _ = os.ReadFile(img)
			refused(t, "mounted image", planFile(true), "Error: Drive In Use")
			refused(t, "mounted image", planFile(true), img+" is the backing file of loop device "+loop+", which is mounted at "+mnt+"; it is in use, so drivebench will not write to it")
		})
	} else {
		t.Log("not root: the mounted image case is skipped")
	}

	for _, allow := range []bool{true, false} {
		if code, _, errOut := runCLI(t, "run", "-out", filepath.Join(t.TempDir(), "out"), planFile(allow)); code != exitOK {
			t.Fatalf("run with allow_existing_data = %v: exit %d\n%s", allow, code, errOut)
		}
	}
}
