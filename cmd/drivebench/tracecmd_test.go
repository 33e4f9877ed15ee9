package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/trace"
	"github.com/drivebench/drivebench/workload"
)

// traceStatJSON runs trace stat -json and decodes what it prints.
func traceStatJSON(t *testing.T, args ...string) trace.Stats {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"trace", "stat", "-json"}, args...)...)
	if code != exitOK || errOut != "" {
		t.Fatalf("trace stat %v: exit %d, stderr %q", args, code, errOut)
	}
	var s trace.Stats
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("trace stat -json: %v\n%s", err, out)
	}
	if s.FormatVersion != trace.StatsVersion {
		t.Errorf("format_version %q", s.FormatVersion)
	}
	return s
}

// TestTraceStatJSONFormats: trace stat -json gives the exact counts of a
// fixture of each format.
func TestTraceStatJSONFormats(t *testing.T) {
	dir := filepath.Join("..", "..", "trace", "testdata")
	tests := []struct {
		file, device                             string
		format                                   trace.Format
		ios, reads, writes, flushes, bytes, dura int64
	}{
		{"v2.iolog", "", trace.IologV2, 4, 1, 1, 1, 69632, 0},
		{"v3.iolog", "", trace.IologV3, 4, 1, 1, 1, 12288, 2980000},
		{"usr_0.csv", "usr_0", trace.MSR, 2, 1, 1, 0, 32768, 1332052600 + 196300},
		{"alibaba.csv", "419", trace.Alibaba, 2, 1, 1, 0, 20480, 300000},
		{"tencent.csv", "", trace.Tencent, 3, 1, 2, 0, 152 * 512, 2e9},
		{"loop0.blkparse", "7:0", trace.Blkparse, 3, 1, 1, 1, 73728, 7800},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			args := []string{filepath.Join(dir, tt.file)}
			if tt.device != "" {
				args = append(args, "-device", tt.device)
			}
			s := traceStatJSON(t, args...)
			got := []any{s.Format, s.IOs, s.Reads, s.Writes, s.Flushes, s.Bytes, s.DurationNS}
			want := []any{tt.format, tt.ios, tt.reads, tt.writes, tt.flushes, tt.bytes, tt.dura}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("format, ios, reads, writes, flushes, bytes, duration_ns: %v, want %v", got, want)
			}
		})
	}
}

// TestTraceStatFio: trace stat -json counts what fio's write_iolog
// logged, as fio's own JSON counts it.
func TestTraceStatFio(t *testing.T) {
	fio := testenv.Command(t, "fio", "fio")
	dir := t.TempDir()
	log := filepath.Join(dir, "job.iolog")
	out, err := exec.Command(fio, "--name=t", "--filename="+filepath.Join(dir, "f.img"), "--size=8M",
		"--rw=randrw", "--rwmixread=70", "--bssplit=4k/60:64k/40", "--io_size=4M", "--ioengine=psync", "--fsync=16",
		"--write_iolog="+log, "--output-format=json").Output()
	if err != nil {
		t.Fatalf("fio: %v", err)
	}
	j := fioJob(t, out)
	s := traceStatJSON(t, log)
	got := []int64{s.IOs, s.Reads, s.Writes, s.Flushes, s.ReadBytes, s.WriteBytes}
	want := []int64{j.Read.TotalIOs + j.Write.TotalIOs + j.Sync.TotalIOs, j.Read.TotalIOs, j.Write.TotalIOs, j.Sync.TotalIOs, j.Read.IOBytes, j.Write.IOBytes}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ios, reads, writes, flushes, read and written bytes: %v; fio says %v", got, want)
	}
	t.Logf("fio write_iolog: %d I/Os (%d reads, %d writes, %d syncs), %d bytes", s.IOs, s.Reads, s.Writes, s.Flushes, s.Bytes)
}

func TestTraceStatText(t *testing.T) {
	code, out, errOut := runCLI(t, "trace", "stat", filepath.Join("..", "..", "trace", "testdata", "usr_0.csv"), "-device", "usr_0")
	for _, want := range []string{
		`usr_0.csv: msr-cambridge, device "usr_0" of 2`,
		"  Total       2\n", "  Reads       1 (24.58 kB)\n", "  Duration    1.33 s\n",
		"Queue depth (I/Os in flight as each is issued)\n  Mean  1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if code != exitOK || errOut != "" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestTraceErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.iolog")
	os.WriteFile(bad, []byte("fio version 3 iolog\n10 /f read 0 4096\n20 /f jump 0 4096\n"), 0o644)
	csv := filepath.Join(dir, "notes.csv")
	os.WriteFile(csv, []byte("name,age\nbob,3\n"), 0o644)
	only := filepath.Join(dir, "flush.iolog")
	os.WriteFile(only, []byte("fio version 2 iolog\n/f sync 0 0\n"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"trace", "stat", bad}, "drivebench trace stat: " + bad + ":3: action \"jump\" is not read, write, sync, datasync, trim or wait\n"},
		{[]string{"trace", "stat", csv}, "drivebench trace stat: " + csv + ": not a trace format drivebench reads: its first line is \"name,age\""},
		{[]string{"trace", "stat", filepath.Join(dir, "none")}, "no such file or directory"},
		{[]string{"trace", "stat", "-device", "9", filepath.Join("..", "..", "trace", "testdata", "usr_0.csv")}, "has no I/O of device \"9\"; its devices are \"usr_0\", \"usr_1\"\n"},
		{[]string{"trace", "mix", only}, "drivebench trace mix: " + only + ": the trace has no reads or writes to make a mix of (flushes: 1, discards: 0)\n"},
		{[]string{"trace", "stat"}, "drivebench trace stat: expected a trace file, got 0 arguments"},
		{[]string{"trace", "sta"}, "drivebench trace: unknown subcommand \"sta\""},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestTraceMixLoads: the block trace mix writes of a trace with 82 % of
// its I/Os on the first tenth of its span loads as a plan's mix with the
// trace's read share, sizes, random share and that skew.
func TestTraceMixLoads(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 10000 {
		slot := int64(i % 1000) // uniform over 1000 slots
		if i%10 < 8 {
			slot = int64(i*7) % 100 // the first 100 slots
		}
		op, size := "R", 4096
		if i%4 == 0 {
			op, size = "W", 65536
		}
		fmt.Fprintf(&b, "3,%s,%d,%d,%d\n", op, slot*65536, size, i*100)
	}
	src := filepath.Join(dir, "vm disk.csv")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, block, errOut := runCLI(t, "trace", "mix", src)
	if code != exitOK || errOut != "" {
		t.Fatalf("trace mix: exit %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(block, "# Approximates the trace "+src+"\n# (alibaba, 10,000 I/Os,") {
		t.Errorf("the block does not start by naming its source:\n%s", block)
	}
	planFile := filepath.Join(dir, "plan.hcl")
	text := block + "\ndrive \"d\" {\n  size     = \"1GiB\"\n  writable = true\n}\n\nprofile \"replayed\" {\n  mix     = \"trace-vm-disk\"\n  runtime = 5\n}\n"
	if err := os.WriteFile(planFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _, diags := plan.Load(planFile, plan.LoadOptions{})
	if diags.HasErrors() {
		t.Fatalf("the plan with the mix does not load: %v\n%s", diags, text)
	}
	m := p.Mixes[len(p.Mixes)-1]
	random := 100 - int(math.Round(traceStatJSON(t, src).SequentialPct))
	wantSplit := []workload.SizeWeight{{Size: 4096, Weight: 75}, {Size: 65536, Weight: 25}}
	wantZones := []workload.Zone{{AccessPct: 82, RegionPct: 10}, {AccessPct: 18, RegionPct: 90}}
	if m.Name != "trace-vm-disk" || m.ReadPct != 75 || m.RandomPct != random || !reflect.DeepEqual(m.BSSplit, wantSplit) || !reflect.DeepEqual(m.Zones, wantZones) {
		t.Errorf("mix %+v, want read 75 %%, random %d %%, %v, zones %v\n%s", *m, random, wantSplit, wantZones, block)
	}
}

// signalWriter is a stderr that closes ready when a line containing mark
// is written.
type signalWriter struct {
	mu    sync.Mutex
	buf   strings.Builder
	mark  string
	ready chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.ready != nil && strings.Contains(w.buf.String(), w.mark) {
		close(w.ready)
		w.ready = nil
	}
	return len(p), nil
}

// TestTraceCaptureLoop runs trace capture on a loop device until it is
// interrupted, while fio writes and reads it with O_DIRECT: trace stat
// -json of the capture counts fio's writes and flushes exactly and at
// least its reads (udev's probes may add some), and its bytes.
func TestTraceCaptureLoop(t *testing.T) {
	testenv.Root(t, "tracefs and loop devices")
	fio := testenv.Command(t, "fio", "fio")
	dev := blockdevtest.LoopDevice(t, 64<<20)
	file := filepath.Join(t.TempDir(), "capture.iolog")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errW := &signalWriter{mark: "recording", ready: make(chan struct{})}
	ready := errW.ready
	var out strings.Builder
	done := make(chan int)
	go func() {
		done <- dispatch(ctx, []string{"trace", "capture", "-device", dev, "-o", file}, stdio{out: &out, err: errW, getenv: func(string) string { return "" }})
	}()
	select {
	case <-ready:
	case code := <-done:
		t.Fatalf("trace capture ended with %d before recording: %s", code, errW.buf.String())
	}
	fioOut, err := exec.Command(fio, "--name=w", "--filename="+dev, "--direct=1", "--ioengine=psync", "--rw=randrw",
		"--bs=8k", "--size=16M", "--io_size=1M", "--fsync=4", "--output-format=json").Output()
	cancel()
	code := <-done
	if err != nil {
		t.Fatalf("fio: %v", err)
	}
	if code != exitOK || !strings.Contains(out.String(), "Captured ") || !strings.Contains(out.String(), "Wrote "+file+" (fio iolog v3") {
		t.Fatalf("trace capture: exit %d\n%s\n%s", code, out.String(), errW.buf.String())
	}
	j := fioJob(t, fioOut)
	s := traceStatJSON(t, file)
	if s.Format != trace.IologV3 || s.Writes != j.Write.TotalIOs || s.WriteBytes != j.Write.IOBytes || s.Flushes != j.Sync.TotalIOs || s.Reads < j.Read.TotalIOs {
		t.Errorf("trace stat of the capture: %d writes (%d bytes), %d flushes, %d reads; fio did %d writes (%d bytes), %d syncs, %d reads",
			s.Writes, s.WriteBytes, s.Flushes, s.Reads, j.Write.TotalIOs, j.Write.IOBytes, j.Sync.TotalIOs, j.Read.TotalIOs)
	}
	t.Logf("%s", out.String())
}

func TestTraceCaptureUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"trace", "capture", "-o", "x.iolog"}, "drivebench trace capture: -device and -o are required"},
		{[]string{"trace", "capture", "-device", "/dev/null", "-o", filepath.Join(t.TempDir(), "x.iolog"), "extra"}, "unexpected argument \"extra\""},
	} {
		code, _, errOut := runCLI(t, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errOut, tt.want)
		}
	}
}

// startCapture starts this test binary as drivebench trace capture of
// dev into file, with cred as its user when not nil.
func startCapture(t *testing.T, cred *syscall.Credential, args ...string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	bin := os.Args[0]
	if cred != nil {
		// The test binary's folder is its owner's alone: another user
		// runs a copy.
		dir := t.TempDir()
		os.Chmod(filepath.Dir(dir), 0o755)
		os.Chmod(dir, 0o755)
		b, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(dir, "drivebench")
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, append([]string{"trace", "capture"}, args...)...)
	cmd.Env = append(os.Environ(), "DRIVEBENCH_TEST_AS_COMMAND=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// TestTraceCaptureSIGINT interrupts a running drivebench trace capture
// with SIGINT: it writes what it recorded, exits 0 and leaves no tracefs
// instance behind.
func TestTraceCaptureSIGINT(t *testing.T) {
	testenv.Root(t, "tracefs and loop devices")
	dev := blockdevtest.LoopDevice(t, 8<<20)
	file := filepath.Join(t.TempDir(), "c.iolog")
	cmd, out := startCapture(t, nil, "-device", dev, "-o", file)
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "recording "+dev) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no recording line in 20 s:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	instance := filepath.Join(trace.Tracefs, "instances", fmt.Sprintf("drivebench-capture-%d", cmd.Process.Pid))
	if _, err := os.Stat(instance); err != nil {
		t.Errorf("no tracefs instance while capturing: %v", err)
	}
	if err := exec.Command("dd", "if=/dev/zero", "of="+dev, "bs=4096", "count=4", "oflag=direct").Run(); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit %v after SIGINT, want 0\n%s", err, out.String())
	}
	if _, err := os.Stat(instance); !os.IsNotExist(err) {
		t.Errorf("the tracefs instance is left after SIGINT: %v", err)
	}
	if s := traceStatJSON(t, file); s.Writes != 4 || s.WriteBytes != 16384 {
		t.Errorf("the capture has %d writes of %d bytes, want dd's 4 of 16,384\n%s", s.Writes, s.WriteBytes, out.String())
	}
}

// TestTraceCaptureNotRoot: a user who is not root is told capture needs
// root, and the file -o names is left as it was.
func TestTraceCaptureNotRoot(t *testing.T) {
	testenv.Root(t, "to run the command as another user")
	dir := t.TempDir()
	os.Chmod(dir, 0o777)
	file := filepath.Join(dir, "c.iolog")
	if err := os.WriteFile(file, []byte("an earlier capture\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd, out := startCapture(t, &syscall.Credential{Uid: 65534, Gid: 65534}, "-device", "/dev/null", "-o", file)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitUsage || !strings.Contains(out.String(), "drivebench trace capture: capturing block events needs root") {
		t.Errorf("exit %v, output %q; want %d and the need for root", err, out.String(), exitUsage)
	}
	if b, err := os.ReadFile(file); string(b) != "an earlier capture\n" {
		t.Errorf("the file -o names holds %q (%v), want what it held before", b, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".c.iolog.capture-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// fioJobJSON is what the trace tests read of fio's one job: its I/O
// counts and bytes by direction, and its syncs.
type fioJobJSON struct {
	Read, Write struct {
		TotalIOs int64 `json:"total_ios"`
		IOBytes  int64 `json:"io_bytes"`
	}
	Sync struct {
		TotalIOs int64 `json:"total_ios"`
	}
}

// fioJob reads fio's one job from its JSON output.
func fioJob(t *testing.T, out []byte) fioJobJSON {
	t.Helper()
	var doc struct{ Jobs []fioJobJSON }
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Jobs) != 1 {
		t.Fatalf("fio JSON: %v (%d jobs)", err, len(doc.Jobs))
	}
	return doc.Jobs[0]
}
