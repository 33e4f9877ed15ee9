package main

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
)

// TestDirectAlignmentOfFiles: 512-byte O_DIRECT transfers on a file of an
// ext4 file system (4 KiB blocks) are taken when the disk under it has
// 512-byte sectors, and refused, by validate and by run in the same
// words, when it has 4 KiB sectors. Loop devices need root.
func TestDirectAlignmentOfFiles(t *testing.T) {
	for _, tc := range []struct {
		sector  int
		refusal string // "" when the plan validates and runs
	}{
		{sector: 512},
		{sector: 4096, refusal: `bs = 512B is not a multiple of 4KiB, the logical block size of FILE (drive "d"), which O_DIRECT I/O needs under direct = true. Use a multiple of 4KiB, or direct = false.`},
	} {
		t.Run(strconv.Itoa(tc.sector), func(t *testing.T) {
			mnt := blockdevtest.Ext4(t, 64<<20, "--sector-size", strconv.Itoa(tc.sector))
			file := filepath.Join(mnt, "data.img")
			data := make([]byte, 4<<20)
			rand.Read(data)
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			planFile := filepath.Join(t.TempDir(), "plan.hcl")
			src := `drive "d" {
  path = "` + file + `"
}

profile "small" {
  rw      = "randread"
  bs      = "512"
  direct  = true
  runtime = "300ms"
}
`
			if err := os.WriteFile(planFile, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			vcode, _, verr := runCLI(t, "validate", planFile)
			rcode, _, rerr := runCLI(t, "run", "-out", out, planFile)
			if tc.refusal == "" {
				if vcode != exitOK || rcode != exitOK {
					t.Fatalf("validate: exit %d %s\nrun: exit %d %s", vcode, verr, rcode, rerr)
				}
				return
			}
			want := strings.ReplaceAll(tc.refusal, "FILE", file)
			verr, rerr = unwrap(verr), unwrap(rerr) // diagnostics wrap at 100 columns
			if vcode != exitUsage || !strings.Contains(verr, want) {
				t.Errorf("validate: exit %d, want %d and %q in:\n%s", vcode, exitUsage, want, verr)
			}
			if rcode != exitUsage || !strings.Contains(rerr, want) {
				t.Errorf("run: exit %d, want %d and %q in:\n%s", rcode, exitUsage, want, rerr)
			}
		})
	}
}

// unwrap joins the words of wrapped text with single blanks.
func unwrap(s string) string { return strings.Join(strings.Fields(s), " ") }
