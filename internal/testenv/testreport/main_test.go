package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goTestJSON runs go test -json on packages of testdata/suite, whose
// tests pass, skip, fail, panic, exit and do not build, and returns what
// it wrote. The packages are copied into a module of their own: a go.mod
// under testdata would be a module inside drivebench's, which go install
// drivebench@version refuses to unpack.
func goTestJSON(t *testing.T, pkgs ...string) []byte {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "suite"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/suite\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append([]string{"test", "-json", "-count=1"}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatalf("go test -json: %v\n%s", err, stderr.Bytes())
	}
	return out
}

// allowFile writes an allowlist for the module's tests.
func allowFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "allow.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReport(t *testing.T) {
	const skipPkg = "example.com/suite/skip"
	tests := []struct {
		name  string
		pkgs  []string
		allow string // "" for no allowlist
		code  int
		// want are passages of the report, times replaced by T: the
		// packages end in any order.
		want []string
	}{
		{
			name: "failures", pkgs: []string{"./fail", "./panic", "./exit", "./build", "./pass"}, code: 1,
			want: []string{
				"# example.com/suite/build [example.com/suite/build.test]\nbuild/build_test.go:5:32: undefined: undefinedFunction\n",
				"\nFAIL\texample.com/suite/build [build failed]\n",
				"=== RUN   TestFail\n=== RUN   TestFail/bad\n    fail_test.go:6: got 1, want 2\n--- FAIL: TestFail/bad (T)\n--- FAIL: TestFail (T)\nFAIL\nFAIL\texample.com/suite/fail\tT\n",
				"=== RUN   TestPanic\n--- FAIL: TestPanic (T)\npanic: boom [recovered, repanicked]\n",
				"=== RUN   TestExit\n--- DID NOT FINISH: TestExit (the test binary ended during it)\nFAIL\texample.com/suite/exit\tT\n",
				"ok  \texample.com/suite/pass\tT\n",
				"\n== no test skipped\n== 5 packages (4 failed, 1 of them not built); tests: 2 passed, 3 failed, 1 did not finish, 0 skipped: FAIL\n",
			},
		},
		{
			name: "skips listed", pkgs: []string{"./pass", "./skip", "./none"}, code: 0,
			want: []string{
				"ok  \texample.com/suite/pass\tT\n", "ok  \texample.com/suite/skip\tT\n", "?   \texample.com/suite/none\t[no test files]\n",
				"\n== 3 skipped tests\n" +
					skipPkg + " TestNeedsTool\n    skip_test.go:5: needs fio: it is not installed\n" +
					skipPkg + " TestNoDrive\n    skip_test.go:8: looking for /dev/nvme0\n    skip_test.go:9: no NVMe drive here\n" +
					skipPkg + " TestParent/skips\n    skip_test.go:14: a subtest's skip\n" +
					"== 3 packages; tests: 3 passed, 0 failed, 3 skipped: ok\n",
			},
		},
		{
			name: "a skip not allowed", pkgs: []string{"./skip"}, code: 1,
			allow: "# tests that may skip\n" + skipPkg + " TestNoDrive  a real NVMe drive\n" + skipPkg + " TestParent needs nothing\n",
			want: []string{
				"    skip_test.go:5: needs fio: it is not installed\n    NOT ALLOWED: make it run here, or add it to ALLOW with the reason it cannot\n",
				"    skip_test.go:9: no NVMe drive here\n    allowed (ALLOW:2): a real NVMe drive\n",
				"    skip_test.go:14: a subtest's skip\n    allowed (ALLOW:3): needs nothing\n",
				"\n== 1 packages; tests: 2 passed, 0 failed, 3 skipped (1 not allowed): FAIL\n",
			},
		},
		{
			name: "every skip allowed", pkgs: []string{"./skip"}, code: 0,
			allow: skipPkg + " TestNoDrive a real NVMe drive\n" + skipPkg + " TestNeedsTool fio\n" + skipPkg + " TestParent/skips a subtest\n",
			want:  []string{"\n== 1 packages; tests: 2 passed, 0 failed, 3 skipped: ok\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var allow string
			if tt.allow != "" {
				allow = allowFile(t, tt.allow)
			}
			var out bytes.Buffer
			code := run(bytes.NewReader(goTestJSON(t, tt.pkgs...)), &out, allow)
			report := times.ReplaceAllString(out.String(), "${1}T")
			if allow != "" {
				report = strings.ReplaceAll(report, allow, "ALLOW")
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			for _, w := range tt.want {
				if !strings.Contains(report, w) {
					t.Errorf("the report lacks\n%s\nreport:\n%s", w, report)
				}
			}
		})
	}
}

// times are the durations go test prints: (0.01s) and a package's 0.2s.
var times = regexp.MustCompile(`([(\t])[0-9]+\.[0-9]+s`)

func TestNoEventsFail(t *testing.T) {
	var out bytes.Buffer
	if code := run(strings.NewReader("go: no such module\n"), &out, ""); code != 1 || !strings.Contains(out.String(), "no test events read") {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
}

func TestAllowlistErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"pkg TestX\n", "ALLOW:1: want PACKAGE TEST REASON, the reason saying why the test may skip"},
		{"# comment\n\npkg TestX  # no reason\n", "ALLOW:3: want PACKAGE TEST REASON"},
	} {
		path := allowFile(t, tt.text)
		var out bytes.Buffer
		code := run(strings.NewReader(""), &out, path)
		if got := strings.ReplaceAll(out.String(), path, "ALLOW"); code != 2 || !strings.Contains(got, tt.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tt.text, code, got, tt.want)
		}
	}
	var out bytes.Buffer
	if code := run(strings.NewReader(""), &out, filepath.Join(t.TempDir(), "absent.txt")); code != 2 || !strings.Contains(out.String(), "no such file") {
		t.Errorf("an absent allowlist: exit %d, %q", code, out.String())
	}
}
