package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFmtKeepsMode: a rewritten file keeps its mode (testdata/cli has
// what fmt does with files and folders).
func TestFmtKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plan.hcl")
	if err := os.WriteFile(path, []byte("drive \"d\" {\nsize = \"1GiB\"\n}\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "fmt", path); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode after fmt: %v, %v", info.Mode(), err)
	}
	if raw, _ := os.ReadFile(path); string(raw) != "drive \"d\" {\n  size = \"1GiB\"\n}\n" {
		t.Errorf("after fmt:\n%s", raw)
	}
}

func TestUnifiedDiff(t *testing.T) {
	lines := func(n int, edit map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if s, ok := edit[i]; ok {
				b.WriteString(s)
				continue
			}
			b.WriteString("line " + string(rune('a'+i-1)) + "\n")
		}
		return b.String()
	}
	tests := []struct {
		name string
		a, b string
		want string
	}{
		{
			name: "two hunks far apart",
			a:    lines(20, nil),
			b:    lines(20, map[int]string{2: "two\n", 19: ""}),
			want: "@@ -1,5 +1,5 @@\n line a\n-line b\n+two\n line c\n line d\n line e\n" +
				"@@ -16,5 +16,4 @@\n line p\n line q\n line r\n-line s\n line t\n",
		},
		{
			name: "changes close together share a hunk",
			a:    lines(10, nil),
			b:    lines(10, map[int]string{3: "C\n", 8: "H\n"}),
			want: "@@ -1,10 +1,10 @@\n line a\n line b\n-line c\n+C\n line d\n line e\n line f\n line g\n-line h\n+H\n line i\n line j\n",
		},
		{
			name: "added final newline",
			a:    "x\ny",
			b:    "x\ny\n",
			want: "@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n",
		},
		{
			name: "insertion into empty",
			a:    "",
			b:    "x\n",
			want: "@@ -0,0 +1,1 @@\n+x\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(unifiedDiff("f.hcl", []byte(tt.a), []byte(tt.b)))
			got = strings.TrimPrefix(got, "diff a/f.hcl b/f.hcl\n--- a/f.hcl\n+++ b/f.hcl\n")
			if got != tt.want {
				t.Errorf("diff:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestFmtDiffLargeFile: a plan of 20,000 lines with a misaligned line in
// every 200th block diffs as one small hunk a change, at the change's
// line, instead of one replacement of the whole file.
func TestFmtDiffLargeFile(t *testing.T) {
	const blocks, every = 4000, 200 // five lines a block
	var src, wantDiff strings.Builder
	src.WriteString("# A plan of 4,000 drives.\n")
	path := filepath.Join(t.TempDir(), "big.hcl")
	name := filepath.ToSlash(path)
	wantDiff.WriteString(path + "\ndiff a/" + name + " b/" + name + "\n--- a/" + name + "\n+++ b/" + name + "\n")
	for i := range blocks {
		size := `  size     = "1GiB"` + "\n"
		if i%every == every/2 {
			size = `size = "1GiB"` + "\n"
			fmt.Fprintf(&wantDiff, "@@ -%d,7 +%d,7 @@\n", 5*i+1, 5*i+1)
			fmt.Fprintf(&wantDiff, " }\n \n drive \"d%05d\" {\n-%s+  size     = \"1GiB\"\n   writable = true\n }\n \n", i, size)
		}
		fmt.Fprintf(&src, "\ndrive \"d%05d\" {\n%s  writable = true\n}\n", i, size)
	}
	if lines := strings.Count(src.String(), "\n"); lines < 20000 {
		t.Fatalf("the plan has %d lines", lines)
	}
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "fmt", "-check", "-diff", path)
	if code != exitUnformatted || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if out != wantDiff.String() {
		t.Errorf("diff of %d bytes, want %d bytes; first 2,000 bytes:\n%.2000s", len(out), wantDiff.Len(), out)
	}
}
