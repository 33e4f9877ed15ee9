package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/drivebench/drivebench/script"
)

// cmdTestHooks runs hook tests: the test_ functions of every *_test.star
// file under each plan folder given (or the one test file given), under
// the same limits as hooks in a run. Exit 0 when every test passed, 1
// when one failed, 2 when there is nothing to test.
func cmdTestHooks(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("test-hooks", "[PLAN-FOLDER | TEST-FILE]...",
		"Run the tests of a plan's hooks: every function named test_* in the *_test.star files under each plan folder (default: the current folder). See docs/hooks.md.", io)
	run := fs.String("run", "", "run only the tests whose names match this regular expression")
	verbose := fs.Bool("v", false, "list every test, and what failing tests print()ed")
	hookSteps := fs.Uint64("hook-steps", 0, "execution-step limit of each test (default 10,000,000)")
	hookTimeout := fs.Duration("hook-timeout", 0, "wall-clock limit of each test (default 5s)")
	var hookMemory sizeFlag
	fs.Var(&hookMemory, "hook-memory", "memory limit of the hooks under test, such as 1GiB (default 512MiB)")
	paths, code, done := parseInterspersed(fs, args)
	if done {
		return code
	}
	var filter *regexp.Regexp
	if *run != "" {
		var err error
		if filter, err = regexp.Compile(*run); err != nil {
			fmt.Fprintf(io.err, "drivebench test-hooks: -run %q: %v\n", *run, err)
			return exitUsage
		}
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	t := &hookTester{io: io, verbose: *verbose, filter: filter, limits: script.Limits{MaxSteps: *hookSteps, Timeout: *hookTimeout, Memory: int64(hookMemory)}}
	for _, path := range paths {
		if !t.testPath(ctx, path) {
			return exitUsage
		}
	}
	return t.summary()
}

// hookTester runs hook tests and counts their outcomes.
type hookTester struct {
	io             stdio
	verbose        bool
	filter         *regexp.Regexp
	limits         script.Limits
	passed, failed int
}

// testPath runs the tests of one plan folder or test file; false when
// the path cannot be tested at all.
func (t *hookTester) testPath(ctx context.Context, path string) bool {
	root, files, err := testFiles(path)
	if err != nil {
		fmt.Fprintln(t.io.err, "drivebench test-hooks:", err)
		return false
	}
	rt := script.New(root, t.limits)
	defer rt.Close()
	for _, file := range files {
		results, err := rt.RunTests(ctx, file, t.filter)
		if err != nil {
			t.failed++
			fmt.Fprintf(t.io.out, "FAIL %s\n", display(root, file))
			t.showError(err, nil)
			continue
		}
		for _, res := range results {
			t.report(root, res)
		}
	}
	return true
}

// testFiles finds the test files of a path: every *_test.star file under
// a folder, which is the hooks' plan folder; or one test file, whose
// folder is.
func testFiles(path string) (root string, files []string, err error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", nil, err
	}
	if !info.IsDir() {
		if !strings.HasSuffix(path, script.TestSuffix) {
			return "", nil, fmt.Errorf("%s is not a hook test file (*%s)", path, script.TestSuffix)
		}
		return filepath.Dir(path), []string{filepath.Base(path)}, nil
	}
	files, err = script.FindTests(path)
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no hook tests (*%s) under %s", script.TestSuffix, path)
	}
	return path, files, err
}

// display names a test file as the user can find it.
func display(root, file string) string {
	return filepath.ToSlash(filepath.Join(root, file))
}

// report prints one test's outcome: failures always, passes with -v.
func (t *hookTester) report(root string, res script.TestResult) {
	name := display(root, res.File) + ":" + res.Test
	if res.Err == nil {
		t.passed++
		if t.verbose {
			fmt.Fprintf(t.io.out, "ok   %s (%s)\n", name, res.Duration.Round(time.Millisecond))
		}
		return
	}
	t.failed++
	fmt.Fprintf(t.io.out, "FAIL %s\n", name)
	t.showError(res.Err, res.Prints)
}

// showError prints a failure's place and message, with its backtrace and
// the test's prints when verbose.
func (t *hookTester) showError(err error, prints []string) {
	fmt.Fprintf(t.io.out, "     %s\n", err)
	var se *script.Error
	if t.verbose && errors.As(err, &se) && se.Backtrace != "" {
		for _, line := range strings.Split(strings.TrimRight(se.Backtrace, "\n"), "\n") {
			if !strings.HasPrefix(line, "Error") {
				fmt.Fprintf(t.io.out, "     %s\n", line)
			}
		}
	}
	if t.verbose {
		for _, p := range prints {
			fmt.Fprintf(t.io.out, "     print: %s\n", p)
		}
	}
}

// summary prints the totals and picks the exit code.
func (t *hookTester) summary() int {
	fmt.Fprintf(t.io.out, "%d passed, %d failed\n", t.passed, t.failed)
	if t.failed > 0 {
		return exitCheckFailed
	}
	return exitOK
}
