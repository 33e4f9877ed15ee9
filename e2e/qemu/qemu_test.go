package qemu

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
)

// guestSerial is the serial number the emulated controller reports.
const guestSerial = "drivebench-e2e"

// tierTimeout bounds the whole tier: kernel download, build, boot, run.
const tierTimeout = 6 * time.Minute

// tools are the host programs the tier needs, with the Debian package of
// each.
var tools = []struct{ name, pkg string }{
	{"qemu-system-x86_64", "qemu-system-x86"},
	{"busybox", "busybox-static"},
	{"nvme", "nvme-cli"},
	{"ldd", "libc-bin"},
	{"go", "a Go toolchain"},
}

// TestQEMUNVMe boots a guest with an emulated NVMe controller and checks
// drivebench against nvme-cli on it; see the package documentation.
func TestQEMUNVMe(t *testing.T) {
	requireTier(t)
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), tierTimeout)
	defer cancel()
	dir := t.TempDir()
	kernel := kernelImage(ctx, t)
	drivebench := buildDrivebench(ctx, t, dir)
	initrd := buildInitramfs(t, dir, drivebench)
	t.Logf("kernel, static drivebench and initramfs ready after %s", time.Since(start).Round(time.Second))
	steps := bootGuest(ctx, t, dir, kernel, initrd)
	t.Logf("guest done after %s", time.Since(start).Round(time.Second))

	t.Run("identity", func(t *testing.T) { checkIdentity(t, steps) })
	t.Run("smart", func(t *testing.T) { checkSmart(t, steps) })
	t.Run("purge", func(t *testing.T) { checkPurge(t, steps) })
	t.Run("plan", func(t *testing.T) { checkPlanRun(t, steps) })
	t.Run("drive-state", func(t *testing.T) { checkDriveState(t, steps) })
	t.Run("write-cache", func(t *testing.T) { checkWriteCache(t, steps) })
	t.Run("thermal", func(t *testing.T) { checkThermal(t, steps) })
	t.Run("snia-pts", func(t *testing.T) { checkSNIA(t, steps) })
	t.Logf("tier took %s", time.Since(start).Round(time.Second))
}

// requireTier ends the test unless the tier is asked for and can run
// here.
func requireTier(t *testing.T) {
	if os.Getenv("DRIVEBENCH_E2E_QEMU") != "1" {
		testenv.Require(t, "DRIVEBENCH_E2E_QEMU=1", "the QEMU tier is off; set it to boot a guest with an emulated NVMe drive (needs root; test.sh sets it)")
	}
	testenv.Root(t, "the QEMU tier downloads the guest's kernel with apt-get and caches it under /var/cache")
	for _, tool := range tools {
		testenv.Command(t, tool.name, tool.pkg)
	}
}

// run runs a command and returns its stdout, or fails the test with its
// stderr.
func run(ctx context.Context, t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// ---- kernel ---------------------------------------------------------------

// kernelFlavour is the Debian kernel the guest boots: the cloud flavour
// has the NVMe driver built in, so the initramfs needs no modules.
const kernelFlavour = "linux-image-cloud-amd64"

// cacheDir is where downloaded kernels are kept between runs.
func cacheDir() string {
	if dir := os.Getenv("DRIVEBENCH_E2E_CACHE"); dir != "" {
		return dir
	}
	return "/var/cache/drivebench-e2e"
}

// kernelImage returns the kernel to boot: $DRIVEBENCH_E2E_KERNEL, or the
// current Debian cloud kernel, downloaded into the cache on first use.
func kernelImage(ctx context.Context, t *testing.T) string {
	if kernel := os.Getenv("DRIVEBENCH_E2E_KERNEL"); kernel != "" {
		return kernel
	}
	pkg := kernelPackage(ctx, t)
	vmlinuz := filepath.Join(cacheDir(), pkg, "vmlinuz")
	if _, err := os.Stat(vmlinuz); err == nil {
		return vmlinuz
	}
	start := time.Now()
	if err := os.MkdirAll(filepath.Dir(vmlinuz), 0o755); err != nil {
		t.Fatal(err)
	}
	download := t.TempDir()
	run(ctx, t, download, nil, "apt-get", "download", pkg)
	debs, _ := filepath.Glob(filepath.Join(download, pkg+"_*.deb"))
	if len(debs) != 1 {
		t.Fatalf("apt-get download %s left %d packages in %s, want 1", pkg, len(debs), download)
	}
	tarball := run(ctx, t, download, nil, "dpkg-deb", "--fsys-tarfile", debs[0])
	if err := extractKernel(bytes.NewReader(tarball), vmlinuz); err != nil {
		t.Fatalf("%s: %v", debs[0], err)
	}
	t.Logf("downloaded %s into %s in %s", pkg, vmlinuz, time.Since(start).Round(100*time.Millisecond))
	return vmlinuz
}

// kernelPackage asks apt which versioned package the flavour stands for,
// e.g. linux-image-6.1.0-48-cloud-amd64.
func kernelPackage(ctx context.Context, t *testing.T) string {
	out := run(ctx, t, "", nil, "apt-cache", "depends", kernelFlavour)
	for _, line := range strings.Split(string(out), "\n") {
		if pkg, ok := strings.CutPrefix(strings.TrimSpace(line), "Depends: "); ok && strings.HasPrefix(pkg, "linux-image-") {
			return pkg
		}
	}
	t.Fatalf("apt-cache depends %s names no kernel package; run apt-get update, or set DRIVEBENCH_E2E_KERNEL to a kernel image:\n%s",
		kernelFlavour, out)
	return ""
}

// extractKernel copies boot/vmlinuz-* out of a package's data tarball to
// dst, atomically, so an interrupted run leaves no half kernel behind.
func extractKernel(tarball io.Reader, dst string) error {
	tr := tar.NewReader(tarball)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return errors.New("no boot/vmlinuz-* in the package")
		}
		if err != nil {
			return err
		}
		if !strings.HasPrefix(strings.TrimPrefix(h.Name, "./"), "boot/vmlinuz-") {
			continue
		}
		tmp := dst + ".tmp"
		kernel, err := io.ReadAll(tr)
		if err == nil {
			err = os.WriteFile(tmp, kernel, 0o644)
		}
		if err == nil {
			err = os.Rename(tmp, dst)
		}
		return err
	}
}

// ---- guest contents -------------------------------------------------------

// buildDrivebench builds a static drivebench from this module.
func buildDrivebench(ctx context.Context, t *testing.T, dir string) string {
	gomod := strings.TrimSpace(string(run(ctx, t, "", nil, "go", "env", "GOMOD")))
	out := filepath.Join(dir, "drivebench")
	run(ctx, t, filepath.Dir(gomod), []string{"CGO_ENABLED=0"}, "go", "build", "-trimpath", "-o", out, "./cmd/drivebench")
	return out
}

// buildInitramfs packs busybox, nvme-cli with its libraries, drivebench,
// the guest's /init and the plans.
func buildInitramfs(t *testing.T, dir, drivebench string) string {
	path := filepath.Join(dir, "initramfs.cpio")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	c := newCPIOWriter(w)
	for _, d := range []string{"proc", "sys", "dev", "tmp", "bin"} {
		c.dir(d)
	}
	c.charDev("dev/console", 0o600, 5, 1)
	libs := map[string]bool{}
	for _, name := range []string{"busybox", "nvme"} {
		bin, _ := exec.LookPath(name)
		addProgram(t, c, bin, "bin/"+name, libs)
	}
	addFile(t, c, drivebench, "bin/drivebench", 0o755)
	addFile(t, c, "testdata/init", "init", 0o755)
	for _, plan := range []string{"purge.hcl", "run.hcl", "cache.hcl"} {
		addFile(t, c, filepath.Join("testdata", plan), "plans/"+plan, 0o644)
	}
	addExamples(t, c)
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}

// exampleFiles are the example plans the guest runs, with what they
// read, as patterns under the module's examples/: the SNIA plan, its
// smoke variables and the spec sheets it includes.
var exampleFiles = []string{"snia-pts-enterprise/pts-e.hcl", "snia-pts-enterprise/smoke.vars.hcl", "drives/*.hcl"}

// addExamples packs exampleFiles from the module's examples/ under
// /examples, at the same relative paths, so the plans' includes resolve
// and the examples stay their only copy.
func addExamples(t *testing.T, c *cpioWriter) {
	t.Helper()
	for _, pattern := range exampleFiles {
		files, err := filepath.Glob(filepath.Join("..", "..", "examples", pattern))
		if err != nil || len(files) == 0 {
			t.Fatalf("no example matches %s: %v", pattern, err)
		}
		for _, f := range files {
			rel, _ := filepath.Rel(filepath.Join("..", ".."), f)
			addFile(t, c, f, filepath.ToSlash(rel), 0o644)
		}
	}
}

// addFile copies a host file into the archive.
func addFile(t *testing.T, c *cpioWriter, src, dst string, perm uint32) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	c.file(dst, perm, b)
}

// addProgram copies a program and the shared libraries it loads, each at
// the path the host's loader found it, once per archive.
func addProgram(t *testing.T, c *cpioWriter, bin, dst string, libs map[string]bool) {
	t.Helper()
	addFile(t, c, bin, dst, 0o755)
	deps, err := sharedLibraries(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range deps {
		if !libs[lib] {
			libs[lib] = true
			addFile(t, c, lib, lib, 0o755)
		}
	}
}

// sharedLibraries lists the absolute paths ldd prints for bin: its
// libraries and the loader; none for a static program.
func sharedLibraries(bin string) ([]string, error) {
	out, err := exec.Command("ldd", bin).CombinedOutput()
	if err != nil {
		if bytes.Contains(out, []byte("not a dynamic executable")) {
			return nil, nil
		}
		return nil, fmt.Errorf("ldd %s: %v: %s", bin, err, out)
	}
	var libs []string
	for _, field := range strings.Fields(string(out)) {
		if strings.HasPrefix(field, "/") {
			libs = append(libs, field)
		}
	}
	return libs, nil
}

// ---- boot -----------------------------------------------------------------

// bootGuest runs the guest to its poweroff and returns its steps. The
// console goes to console.log, the steps to the second serial port.
func bootGuest(ctx context.Context, t *testing.T, dir, kernel, initrd string) map[string]*guestStep {
	image := filepath.Join(dir, "nvme.img")
	if err := os.WriteFile(image, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(image, 256<<20); err != nil {
		t.Fatal(err)
	}
	console, results := filepath.Join(dir, "console.log"), filepath.Join(dir, "results.txt")
	// Two vCPUs, though the guest runs one program at a time: with one,
	// TCG before QEMU 8.1 leaves the guest's memory barriers out (QEMU
	// commit "tcg: Do not elide memory barriers for !CF_PARALLEL in
	// system mode"), yet Linux shares the controller's shadow doorbells
	// with QEMU's other threads. QEMU 7.2's controller then now and then
	// missed a submission: I/O timeouts, aborts and controller resets in
	// about four runs of ten, none in eight with two vCPUs. loglevel=5
	// puts such kernel warnings on the console.
	cmd := exec.CommandContext(ctx, "qemu-system-x86_64",
		"-accel", "tcg", "-m", "1024", "-smp", "2", "-nodefaults", "-display", "none", "-no-reboot",
		"-kernel", kernel, "-initrd", initrd, "-append", "console=ttyS0 loglevel=5 panic=-1",
		"-serial", "file:"+console, "-serial", "file:"+results,
		"-drive", "file="+image+",if=none,id=nv0,format=raw",
		"-device", "nvme,serial="+guestSerial+",drive=nv0")
	out, err := cmd.CombinedOutput()
	consoleText, _ := os.ReadFile(console)
	t.Logf("guest console:\n%s", guestLines(consoleText))
	if err != nil {
		t.Fatalf("qemu: %v\n%s\nconsole:\n%s", err, out, tail(consoleText, 40))
	}
	f, err := os.Open(results)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	steps, err := parseSteps(f)
	if err != nil {
		t.Errorf("results port: %v\nconsole:\n%s", err, tail(consoleText, 40))
	}
	return steps
}

// guestLines picks the init script's progress lines from the console.
func guestLines(console []byte) string {
	var lines []string
	for _, line := range strings.Split(strings.ReplaceAll(string(console), "\r", ""), "\n") {
		if i := strings.Index(line, "GUEST: "); i >= 0 {
			lines = append(lines, line[i:])
		}
	}
	return strings.Join(lines, "\n")
}

// tail returns the last n lines of text.
func tail(text []byte, n int) string {
	lines := strings.Split(strings.ReplaceAll(string(text), "\r", ""), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
