package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
)

// TestInitPlansValidate: the starter plan for a scratch file, a file and
// (as root) a loop device validates as written, with the target's size
// and block size in it. (testdata/cli has the scratch plan whole, and
// init's usage errors.)
func TestInitPlansValidate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "disk.img")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(file, 48<<20); err != nil {
		t.Fatal(err)
	}
	targets := []struct {
		name, target string
		want         []string
	}{
		{"scratch", "", []string{`size     = "1GiB"`}},
		{"file", file, []string{`path     = "` + file + `"`, `size     = "48MiB"`, "(50331648 bytes)"}},
	}
	// The loop device backs onto a file of its own: the file case's would
	// be refused as the backing file of an attached loop device.
	backing := filepath.Join(dir, "loop.img")
	if err := os.WriteFile(backing, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(backing, 48<<20); err != nil {
		t.Fatal(err)
	}
	if loop := loopDevice(t, backing); loop != "" {
		targets = append(targets, struct {
			name, target string
			want         []string
		}{"loop device", loop, []string{`path     = "` + loop + `"`, `size     = "48MiB"`, "logical block size 512 bytes"}})
	}
	for _, tc := range targets {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "plan.hcl")
			args := []string{"init", "-o", out}
			if tc.target != "" {
				args = append(args, tc.target)
			}
			if code, _, errOut := runCLI(t, args...); code != exitOK {
				t.Fatalf("init: exit %d: %s", code, errOut)
			}
			text, _ := os.ReadFile(out)
			for _, w := range append(tc.want, `precondition "fill"`, "sweep {", "expect = [", "report {") {
				if !strings.Contains(string(text), w) {
					t.Errorf("plan lacks %q:\n%s", w, text)
				}
			}
			if code, stdout, errOut := runCLI(t, "validate", out); code != exitOK {
				t.Errorf("validate: exit %d\n%s%s\n%s", code, stdout, errOut, text)
			}
			if code, stdout, _ := runCLI(t, "fmt", "-check", out); code != exitOK {
				t.Errorf("the plan is not formatted: %s", stdout)
			}
		})
	}
}

// loopDevice attaches file to a loop device for the test, or returns ""
// (with a log line) when that needs root or losetup.
func loopDevice(t *testing.T, file string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		testenv.RequirePart(t, "root", "attaching a loop device needs root: the loop device case is left out")
		return ""
	}
	out, err := exec.Command("losetup", "--find", "--show", file).Output()
	if err != nil {
		testenv.RequirePart(t, "a loop device", "losetup: %v: the loop device case is left out", err)
		return ""
	}
	dev := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("losetup", "-d", dev).Run() })
	return dev
}
