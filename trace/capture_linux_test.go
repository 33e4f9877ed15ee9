package trace

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/internal/testenv"
)

func TestParseBlockEvent(t *testing.T) {
	tests := []struct {
		line string
		want blockEvent
		ok   bool
	}{
		{"              dd-15455   [001] ..... 11836.292266: block_rq_issue: 7,3 WS 4096 () 0 + 8 be,0,4 [dd]",
			blockEvent{us: 11836292266, op: Write, sector: 0, sectors: 8}, true},
		{"     ksoftirqd/1-24      [001] ..s.. 11836.301335: block_rq_complete: 7,3 RS () 2048 + 128 be,0,4 [0]",
			blockEvent{complete: true, us: 11836301335, op: Read, sector: 2048, sectors: 128}, true},
		{"    kworker/1:2H-9428    [001] ..... 11836.307667: block_rq_issue: 7,3 DS 1048576 () 2048 + 2048 be,0,4 [kworker/1:2H]",
			blockEvent{us: 11836307667, op: Discard, sector: 2048, sectors: 2048}, true},
		{"  jbd2/loop3-8-100 [000] ..... 5.000001: block_rq_issue: 7,3 FF 0 () 0 + 0 none,0,0 [jbd2/loop3-8]",
			blockEvent{us: 5000001, op: Flush}, true},
		{"  sg_io-7 [000] ..... 5.000001: block_rq_issue: 8,0 R 512 (12 00 00 00 24 00) 0 + 1 none,0,0 [sg_io]",
			blockEvent{us: 5000001, op: Read, sectors: 1}, true},
		{"  x-1 [000] ..... 5.000001: block_rq_issue: 8,0 N 0 () 0 + 0 none,0,0 [x]", blockEvent{}, false},
		{"  x-1 [000] ..... 5.0001: block_rq_issue: 8,0 R 4096 () 0 + 8 none,0,0 [x]", blockEvent{}, false},
		{"  x-1 [000] ..... 5.000001: block_bio_queue: 8,0 R 0 + 8 [x]", blockEvent{}, false},
		{"CPU:1 [LOST 20 EVENTS]", blockEvent{}, false},
	}
	for _, tt := range tests {
		got, ok := parseBlockEvent([]byte(tt.line))
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("%q: %+v %v, want %+v %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzBlockEvent(f *testing.F) {
	f.Add([]byte("dd-1 [001] ..... 11836.292266: block_rq_issue: 7,3 WS 4096 () 0 + 8 be,0,4 [dd]"))
	f.Add([]byte("k-2 [001] ..s.. 1.000000: block_rq_complete: 7,3 RS (1 2) 2048 + 128 be,0,4 [0]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ev, ok := parseBlockEvent(b)
		if ok && (ev.us < 0 || ev.op < Read || ev.op > Discard || ev.sector > 1<<54) {
			t.Fatalf("unsound event %+v from %q", ev, b)
		}
	})
}

func TestCaptureRefusesFiles(t *testing.T) {
	testenv.Root(t, "capture needs root before it looks at the device")
	for _, tt := range []struct{ dev, want string }{
		{"/dev/null", "/dev/null is not a block device: capture records the requests of a disk"},
		{filepath.Join(t.TempDir(), "none"), "no such file or directory"},
	} {
		if _, err := StartCapture(tt.dev, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("StartCapture(%s): %v, want %q", tt.dev, err, tt.want)
		}
	}
}

// TestCaptureLoopFio captures a loop device while fio writes and reads
// it with O_DIRECT, logging its own I/Os (write_iolog): the capture holds
// fio's I/Os, same offsets, sizes and order, its writes and flushes
// exactly (other readers, such as udev's probes, may add reads); fio's
// read_iolog then replays the capture onto a second loop device, every
// read, write and flush.
func TestCaptureLoopFio(t *testing.T) {
	testenv.Root(t, "tracefs and loop devices")
	fio := testenv.Command(t, "fio", "fio")
	dev := blockdevtest.LoopDevice(t, 64<<20)
	dir := t.TempDir()
	var captured bytes.Buffer
	c, err := StartCapture(dev, &captured)
	if err != nil {
		t.Fatal(err)
	}
	fioLog := filepath.Join(dir, "fio.iolog")
	out, err := exec.Command(fio, "--name=w", "--filename="+dev, "--direct=1", "--ioengine=psync", "--rw=randrw", "--rwmixread=40",
		"--bssplit=4k/50:16k/30:64k/20", "--size=32M", "--io_size=2M", "--randrepeat=1", "--fsync=8", "--write_iolog="+fioLog, "--output-format=json").Output()
	if err != nil {
		c.Stop()
		t.Fatalf("fio: %v\n%s", err, out)
	}
	res, err := c.Stop()
	if err != nil {
		t.Fatal(err)
	}
	want := fioCounts(t, out)
	if res.Writes != want.writes || res.Flushes != want.syncs || res.Reads < want.reads || res.Lost != 0 || res.Completed < res.IOs-1 {
		t.Errorf("captured %d writes, %d flushes, %d reads, %d completions of %d I/Os, %d lost; fio did %d writes, %d syncs and %d reads",
			res.Writes, res.Flushes, res.Reads, res.Completed, res.IOs, res.Lost, want.writes, want.syncs, want.reads)
	}
	capFile := filepath.Join(dir, "capture.iolog")
	if err := os.WriteFile(capFile, captured.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fioIOs := readFile(t, fioLog)
	capIOs := readFile(t, capFile)
	if missing := subsequence(fioIOs, capIOs); missing != "" {
		t.Errorf("the capture lacks fio's I/O %s (fio %d I/Os, capture %d)", missing, len(fioIOs), len(capIOs))
	}
	t.Logf("captured %d I/Os (%d reads, %d writes, %d flushes, %d bytes) in %v; fio did %d reads, %d writes and %d syncs; latency p50 %d ns",
		res.IOs, res.Reads, res.Writes, res.Flushes, res.Bytes, res.Duration, want.reads, want.writes, want.syncs, res.Latency.P50)

	other := blockdevtest.LoopDevice(t, 64<<20)
	out, err = exec.Command(fio, "--name=replay", "--read_iolog="+capFile, "--replay_redirect="+other, "--direct=1",
		"--ioengine=psync", "--output-format=json").Output()
	if err != nil {
		t.Fatalf("fio read_iolog of the capture: %v\n%s", err, out)
	}
	if got := fioCounts(t, out); got.reads != res.Reads || got.writes != res.Writes || got.syncs != res.Flushes {
		t.Errorf("fio replayed %d reads, %d writes and %d syncs of the capture's %d, %d and %d", got.reads, got.writes, got.syncs, res.Reads, res.Writes, res.Flushes)
	}
}

// subsequence says which I/O of want (op, offset, size) is not found in
// got in order, "" when all are.
func subsequence(want, got []IO) string {
	j := 0
	for i, w := range want {
		for j < len(got) && (got[j].Op != w.Op || got[j].Offset != w.Offset || got[j].Size != w.Size) {
			j++
		}
		if j == len(got) {
			return fmt.Sprintf("%d (%s %d+%d)", i, w.Op, w.Offset, w.Size)
		}
		j++
	}
	return ""
}

// TestCaptureInstances: a capture's tracefs instance is gone when it
// stops, and one left by a capture killed outright (its process gone) is
// removed by the next capture, while the instance of a live one stays.
func TestCaptureInstances(t *testing.T) {
	testenv.Root(t, "tracefs and loop devices")
	dev := blockdevtest.LoopDevice(t, 8<<20)
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(Tracefs, "instances", fmt.Sprintf("%s%d", instancePrefix, gone.Process.Pid))
	live := filepath.Join(Tracefs, "instances", fmt.Sprintf("%s%d", instancePrefix, 1))
	for _, d := range []string{stale, live} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.Remove(stale); os.Remove(live) })
	c, err := StartCapture(dev, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(Tracefs, "instances", fmt.Sprintf("%s%d", instancePrefix, os.Getpid()))
	_, errOwn := os.Stat(own)
	_, errStale := os.Stat(stale)
	if _, err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	_, errAfter := os.Stat(own)
	_, errLive := os.Stat(live)
	if errOwn != nil || !os.IsNotExist(errStale) || !os.IsNotExist(errAfter) || errLive != nil {
		t.Errorf("own instance while capturing: %v, stale one: %v, own after Stop: %v, a live process's: %v; want it there, gone, gone, there",
			errOwn, errStale, errAfter, errLive)
	}
}

// TestCapturePartition captures the second partition of a loop device
// while dd writes both: the capture has the writes to it, at offsets from
// its start, and none of the first partition's.
func TestCapturePartition(t *testing.T) {
	testenv.Root(t, "tracefs and loop devices")
	testenv.Command(t, "sfdisk", "fdisk")
	testenv.Command(t, "partx", "util-linux")
	loop := blockdevtest.LoopDevice(t, 32<<20, "--partscan")
	sfdisk := exec.Command("sfdisk", "-q", loop)
	sfdisk.Stdin = strings.NewReader("label: gpt\n,8M\n,8M\n")
	if out, err := sfdisk.CombinedOutput(); err != nil {
		t.Fatalf("sfdisk: %v: %s", err, out)
	}
	p1, p2 := loop+"p1", loop+"p2"
	if _, err := os.Stat(p2); err != nil {
		if out, err := exec.Command("partx", "--add", loop).CombinedOutput(); err != nil {
			t.Fatalf("partx: %v: %s", err, out)
		}
	}
	t.Cleanup(func() { exec.Command("partx", "--delete", loop).Run() })
	var captured bytes.Buffer
	c, err := StartCapture(p2, &captured)
	if err != nil {
		t.Fatal(err)
	}
	for _, dd := range [][]string{{"of=" + p2, "seek=2", "count=3"}, {"of=" + p1, "count=2"}} {
		if out, err := exec.Command("dd", append([]string{"if=/dev/zero", "bs=4096", "oflag=direct"}, dd...)...).CombinedOutput(); err != nil {
			c.Stop()
			t.Fatalf("dd %v: %v: %s", dd, err, out)
		}
	}
	res, err := c.Stop()
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewReader("capture", &captured)
	if err != nil {
		t.Fatal(err)
	}
	var writes []string
	for _, x := range readAll(t, f) {
		if x.Op == Write {
			writes = append(writes, fmt.Sprintf("%d+%d", x.Offset, x.Size))
		}
	}
	if want := "[8192+4096 12288+4096 16384+4096]"; fmt.Sprint(writes) != want || res.Device != p2 {
		t.Errorf("captured writes of %s %v, want %v", res.Device, writes, want)
	}
}
