package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestUnwrittenBytes counts the holes of a file with data in its middle.
func TestUnwrittenBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Truncate(1 << 20)
	f.WriteAt(make([]byte, 64<<10), 256<<10)
	f.Sync()
	tests := []struct {
		start, length, want int64
	}{
		{0, 1 << 20, 1<<20 - 64<<10},
		{256 << 10, 64 << 10, 0},
		{0, 256 << 10, 256 << 10},
		{300 << 10, 100 << 10, 80 << 10},
	}
	for _, tt := range tests {
		got, err := UnwrittenBytes(path, tt.start, tt.length)
		if err != nil || got != tt.want {
			t.Errorf("UnwrittenBytes(%d, %d) = %d, %v; want %d", tt.start, tt.length, got, err, tt.want)
		}
	}
}

func TestLintReads(t *testing.T) {
	dir := t.TempDir()
	truncated := filepath.Join(dir, "sparse.img")
	os.WriteFile(truncated, nil, 0o644)
	os.Truncate(truncated, 1<<20)
	written := filepath.Join(dir, "data.img")
	os.WriteFile(written, make([]byte, 1<<20), 0o644)
	const read = "profile \"r\" {\n  rw = \"randread\"\n  runtime = \"1s\"\n}\n"
	const fill = "precondition \"fill\" {\n  pattern = \"sequential_write\"\n}\n"
	tests := []struct {
		name, plan, want string
	}{
		{"scratch, no fill", "drive \"d\" {\n  size = \"1MiB\"\n  writable = true\n}\n" + read, "Read Of Never-Written Space"},
		{"scratch, filled", "drive \"d\" {\n  size = \"1MiB\"\n  writable = true\n}\n" + fill + read, ""},
		{"half filled", "drive \"d\" {\n  size = \"1MiB\"\n  writable = true\n}\nprecondition \"half\" {\n  pattern = \"sequential_write\"\n  size = \"50%\"\n}\n" + read, "Read Of Never-Written Space"},
		{"written by a profile", "drive \"d\" {\n  size = \"1MiB\"\n  writable = true\n}\nprofile \"w\" {\n  rw = \"write\"\n  runtime = \"1s\"\n}\n" + read, ""},
		{"truncated file", "drive \"d\" {\n  path = \"" + truncated + "\"\n}\n" + read, "Read Of Never-Written Space"},
		{"dataloader's file set", "drive \"d\" {\n  size = \"1MiB\"\n  writable = true\n}\ndataloader \"l\" {\n  preset = \"cosmoflow\"\n  scale = 0.0001\n}\n", ""},
		{"file with data", "drive \"d\" {\n  path = \"" + written + "\"\n}\n" + read, ""},
		{"device", "drive \"d\" {\n  path = \"/dev/null\"\n}\n" + read, ""},
		{"after a purge", "drive \"d\" {\n  path = \"/dev/null\"\n  writable = true\n}\nprecondition \"erase\" {\n  pattern = \"purge\"\n  method = \"format\"\n  destructive = true\n}\n" + read, "Read After Purge"},
		{"purge, then fill", "drive \"d\" {\n  path = \"/dev/null\"\n  writable = true\n}\nprecondition \"erase\" {\n  pattern = \"purge\"\n  method = \"format\"\n  destructive = true\n}\n" + fill + read, ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("plan%d.hcl", i))
			os.WriteFile(path, []byte(tt.plan), 0o644)
			p, _, diags := Load(path, LoadOptions{})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			lint := LintReads(p, Expand(p))
			switch {
			case tt.want == "" && len(lint) > 0:
				t.Errorf("unexpected %s", lint.Error())
			case tt.want != "" && (len(lint) != 1 || lint[0].Summary != tt.want || lint[0].Severity != hcl.DiagWarning || lint[0].Subject.Start.Line != strings.Count(tt.plan[:strings.Index(tt.plan, "profile \"r\"")], "\n")+1):
				t.Errorf("lint %v, want one %q warning at profile \"r\"", lint, tt.want)
			}
		})
	}
}
