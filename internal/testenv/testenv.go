// Package testenv is how a test says that this machine lacks what it
// needs: root, a program (fio, mkfs.xfs, chromium...), a kernel feature,
// a server. Normally the test skips, or leaves out the part that needs
// it, with a message naming what is missing and how to get it.
//
// A skip leaves no trace in a green run, so a suite that skips a tier
// looks like one that ran it. ./test.sh, which CI runs as root on a
// machine where it installs every tool, sets DRIVEBENCH_REQUIRE=all:
// then a test that cannot run fails, with the same message. Skips that
// no machine of CI can avoid (a real NVMe drive) are plain t.Skip calls,
// listed with their reason in testdata/skip-allowlist.txt, which
// ./test.sh checks every skip against (cmd/testreport).
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// RequireEnv names the variable that turns a missing requirement into a
// failure: DRIVEBENCH_REQUIRE=all. Unset or "none", tests skip.
const RequireEnv = "DRIVEBENCH_REQUIRE"

// Strict reports whether every test must run (DRIVEBENCH_REQUIRE=all).
// Another value than all, none or empty is a mistake that would silently
// mean none: it fails t.
func Strict(t testing.TB) bool {
	t.Helper()
	switch v := os.Getenv(RequireEnv); v {
	case "all":
		return true
	case "", "none":
		return false
	default:
		t.Fatalf("%s=%q: want all (a test that cannot run fails) or none (it skips)", RequireEnv, v)
		return false
	}
}

// Require ends t, which cannot run here without what (root, fio, a loop
// device...), for the reason given (a format and its arguments: what
// went wrong and how to get it). The test skips, or fails under
// DRIVEBENCH_REQUIRE=all.
func Require(t testing.TB, what, reason string, args ...any) {
	t.Helper()
	msg := message(what, reason, args)
	if Strict(t) {
		t.Fatal(msg + strictNote)
	}
	t.Skip(msg)
}

// RequirePart is Require for a part of t: the test goes on without the
// part that needs what, and says so in its log (the reason names that
// part), or fails at its end under DRIVEBENCH_REQUIRE=all.
func RequirePart(t testing.TB, what, reason string, args ...any) {
	t.Helper()
	msg := message(what, reason, args)
	if Strict(t) {
		t.Error(msg + strictNote)
		return
	}
	t.Log(msg)
}

// strictNote ends a requirement's message when it fails a test.
const strictNote = " (" + RequireEnv + "=all: a test that cannot run fails instead of skipping)"

func message(what, reason string, args []any) string {
	return fmt.Sprintf("needs %s: %s", what, fmt.Sprintf(reason, args...))
}

// Root requires that the test runs as root, for the purpose given.
func Root(t testing.TB, purpose string) {
	t.Helper()
	if os.Geteuid() != 0 {
		Require(t, "root", "%s; run the tests as root (./test.sh does in CI)", purpose)
	}
}

// Command requires the program name on PATH, which Debian's package pkg
// provides, and returns its path.
func Command(t testing.TB, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Require(t, name, "it is not installed (apt-get install %s; ./test.sh installs it)", pkg)
	}
	return path
}
