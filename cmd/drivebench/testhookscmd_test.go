package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTestHooksOnExamples: the shipped examples' hook tests pass.
func TestTestHooksOnExamples(t *testing.T) {
	code, out, errOut := runCLI(t, "test-hooks", "../../examples/acceptance", "../../examples/apps", "../../examples/ai")
	if code != exitOK || !strings.HasSuffix(out, " passed, 0 failed\n") || strings.HasPrefix(out, "0 passed") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestTestHooksVerbosePass: with -v a passing test is listed with its
// duration, which is why this case is not in testdata/cli with the others.
func TestTestHooksVerbosePass(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "limit_test.star"), []byte("def test_over():\n    assert.true(5 > 4)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "test-hooks", "-v", dir)
	if code != exitOK || !regexp.MustCompile(`^ok   .*/limit_test\.star:test_over \(\d+(\.\d+)?[mµn]?s\)\n1 passed, 0 failed\n$`).MatchString(out) {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
