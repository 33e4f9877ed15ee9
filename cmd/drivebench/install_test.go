package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
)

// TestGoInstallAtVersion publishes this commit as a release to a module
// proxy on disk and installs it as a user would, go install
// github.com/drivebench/drivebench/cmd/drivebench@VERSION; the installed
// binary must print that version. It builds the whole command, so it runs
// only when DRIVEBENCH_INSTALL_TEST=1 (test.sh sets it). The version names
// the commit, v0.99.0-test.<hash>: the go command keeps what it downloaded
// by version, and would install an earlier commit's zip under one name.
func TestGoInstallAtVersion(t *testing.T) {
	if os.Getenv("DRIVEBENCH_INSTALL_TEST") != "1" {
		testenv.Require(t, "DRIVEBENCH_INSTALL_TEST=1", "set it to build a release with go install (test.sh does)")
	}
	root := repoRoot(t)
	head, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		testenv.Require(t, "a git checkout", "the release is made from the commit: git rev-parse HEAD: %v", err)
	}
	const path = "github.com/drivebench/drivebench"
	version := "v0.99.0-test." + strings.TrimSpace(string(head))
	proxy := t.TempDir()
	dir := filepath.Join(proxy, path, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The module zip of the commit, as the Go proxy serves a tag: its
	// files under path@version/.
	zip, err := exec.Command("git", "-C", root, "archive", "--format=zip", "--prefix="+path+"@"+version+"/", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]any{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	for name, data := range map[string][]byte{"list": []byte(version + "\n"), version + ".info": info, version + ".mod": gomod, version + ".zip": zip} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	modcache := strings.TrimSpace(goEnv(t, "GOMODCACHE"))
	bin := t.TempDir()
	cmd := exec.Command("go", "install", path+"/cmd/drivebench@"+version)
	cmd.Dir = t.TempDir() // outside the module, as a user installs
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=", "CGO_ENABLED=0", "GOSUMDB=off",
		// This release from the proxy on disk; its dependencies from the
		// module cache, so the test needs no network.
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(modcache, "cache", "download")))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(bin, "drivebench"), "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "drivebench "+version {
		t.Errorf("drivebench --version after go install @%s: %q (%v)", version, out, err)
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	gomod := strings.TrimSpace(goEnv(t, "GOMOD"))
	return filepath.Dir(gomod)
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
