package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestHooksOnExamples: the shipped examples' hook tests pass.
func TestTestHooksOnExamples(t *testing.T) {
	code, out, errOut := runCLI(t, "test-hooks", "../../examples/acceptance", "../../examples/apps")
	if code != exitOK || !strings.HasSuffix(out, " passed, 0 failed\n") || strings.HasPrefix(out, "0 passed") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestTestHooks(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("limit.star", "def over(x, limit):\n    return x > limit\n")
	write("limit_test.star", `load("limit.star", "over")

def test_over():
    assert.true(over(5, 4))

def test_wrong():
    print("about to fail")
    assert.eq(over(3, 4), True, "3 > 4")

def test_spins():
    while True:
        pass
`)
	tests := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"-hook-steps", "10000", dir}, exitCheckFailed, []string{
			"FAIL " + filepath.ToSlash(dir) + "/limit_test.star:test_wrong\n     limit_test.star:8:14: assert.eq: 3 > 4: got False, want True\n",
			"limit_test.star:test_spins\n     limit_test.star:10:1: hook stopped: it exceeded the step limit of 10000 Starlark steps",
			"1 passed, 2 failed\n",
		}},
		{[]string{"-v", "-run", "wrong", dir}, exitCheckFailed, []string{"     print: about to fail\n", "0 passed, 1 failed\n"}},
		{[]string{"-v", "-run", "over", filepath.Join(dir, "limit_test.star")}, exitOK, []string{"ok   " + filepath.ToSlash(dir) + "/limit_test.star:test_over (", "1 passed, 0 failed\n"}},
		{[]string{"-run", "(", dir}, exitUsage, []string{"-run \"(\""}},
		{[]string{filepath.Join(dir, "limit.star")}, exitUsage, []string{"is not a hook test file (*_test.star)"}},
		{[]string{t.TempDir()}, exitUsage, []string{"no hook tests (*_test.star) under"}},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, append([]string{"test-hooks"}, tt.args...)...)
		if code != tt.code {
			t.Errorf("test-hooks %v: exit %d, want %d\n%s%s", tt.args, code, tt.code, out, errOut)
		}
		for _, w := range tt.want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("test-hooks %v: output lacks %q:\n%s%s", tt.args, w, out, errOut)
			}
		}
	}
}
