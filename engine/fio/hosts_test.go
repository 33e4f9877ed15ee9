package fio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/metrics"
)

// fioServer is a `fio --server` started for a test.
type fioServer struct {
	addr string
	dial string
	cmd  *exec.Cmd
}

// kill stops the server and every process it started at once, as a host
// failure would. fio's forked jobs start sessions of their own, so they
// are found by parentage.
func (s *fioServer) kill() {
	for _, pid := range descendants(s.cmd.Process.Pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

// startServers starts n fio servers: each in its own network namespace
// with its own address when namespaces is set, the test runs as root and
// `ip netns` works, otherwise on loopback ports of one address (which
// fails the test under DRIVEBENCH_REQUIRE=all).
func startServers(t *testing.T, n int, namespaces bool) []*fioServer {
	t.Helper()
	var servers []*fioServer
	switch {
	case namespaces && os.Geteuid() != 0:
		testenv.RequirePart(t, "root", "network namespaces for the fio servers need root; the servers listen on loopback ports instead")
	case namespaces:
		servers = namespaceServers(t, n)
	}
	if servers == nil {
		servers = loopbackServers(t, n)
	}
	for _, s := range servers {
		t.Cleanup(s.kill)
		waitListening(t, s.dial)
	}
	return servers
}

func startServer(t *testing.T, addr, dial string, prefix ...string) *fioServer {
	t.Helper()
	args := append(prefix, "fio", "--server="+addr)
	cmd := exec.Command(args[0], args[1:]...)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start fio server: %v", err)
	}
	return &fioServer{addr: addr, dial: dial, cmd: cmd}
}

func loopbackServers(t *testing.T, n int) []*fioServer {
	var servers []*fioServer
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		addr := fmt.Sprintf("ip:127.0.0.1,%d", port)
		servers = append(servers, startServer(t, addr, fmt.Sprintf("127.0.0.1:%d", port)))
	}
	t.Logf("%d fio servers on loopback ports", n)
	return servers
}

// namespaceServers puts each server in a network namespace joined to this
// one by a veth pair; nil when namespaces cannot be made here.
func namespaceServers(t *testing.T, n int) []*fioServer {
	id := os.Getpid() % 100000
	var servers []*fioServer
	for i := range n {
		ns := fmt.Sprintf("dbfio%d-%d", id, i)
		hostSide, nsSide := fmt.Sprintf("dbf%d%dh", id, i), fmt.Sprintf("dbf%d%dn", id, i)
		subnet := fmt.Sprintf("10.213.%d.%d", id%250, 4*i)
		ip := func(last int) string {
			parts := strings.Split(subnet, ".")
			base, _ := strconv.Atoi(parts[3])
			return fmt.Sprintf("%s.%s.%s.%d", parts[0], parts[1], parts[2], base+last)
		}
		t.Cleanup(func() {
			_ = exec.Command("ip", "netns", "del", ns).Run()
			_ = exec.Command("ip", "link", "del", hostSide).Run()
		})
		steps := [][]string{
			{"ip", "netns", "add", ns},
			{"ip", "link", "add", hostSide, "type", "veth", "peer", "name", nsSide},
			{"ip", "link", "set", nsSide, "netns", ns},
			{"ip", "addr", "add", ip(1) + "/30", "dev", hostSide},
			{"ip", "link", "set", hostSide, "up"},
			{"ip", "netns", "exec", ns, "ip", "addr", "add", ip(2) + "/30", "dev", nsSide},
			{"ip", "netns", "exec", ns, "ip", "link", "set", nsSide, "up"},
			{"ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up"},
		}
		for _, s := range steps {
			if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
				testenv.RequirePart(t, "network namespaces", "%s: %v %s (apt-get install iproute2); the servers listen on loopback ports instead", strings.Join(s, " "), err, bytes.TrimSpace(out))
				for _, srv := range servers {
					srv.kill()
				}
				return nil
			}
		}
		addr := fmt.Sprintf("ip:%s,%d", ip(2), defaultPort)
		servers = append(servers, startServer(t, addr, net.JoinHostPort(ip(2), strconv.Itoa(defaultPort)), "ip", "netns", "exec", ns))
	}
	t.Logf("%d fio servers, each in its own network namespace", n)
	return servers
}

// waitListening waits until the server accepts connections.
func waitListening(t *testing.T, dial string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", dial, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("fio server at %s does not listen: %v", dial, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func serverAddrs(servers []*fioServer) []string {
	addrs := make([]string, len(servers))
	for i, s := range servers {
		addrs[i] = s.addr
	}
	return addrs
}

// TestHostsMerge runs a step on three servers that share one address,
// so fio names their client-side logs alike, and merges their results.
func TestHostsMerge(t *testing.T) {
	needFio(t)
	t.Parallel()
	servers := startServers(t, 3, false)
	target := dataFile(t, 8<<20)
	res, err := Driver{Hosts: serverAddrs(servers)}.Run(context.Background(), target, randRead(2*time.Second), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hosts) != 3 {
		t.Fatalf("%d hosts in the result", len(res.Hosts))
	}
	var reads []*metrics.DirStats
	for i, h := range res.Hosts {
		if h.Host != servers[i].addr || h.Error != "" || h.Read == nil || h.Read.IOs == 0 {
			t.Fatalf("host %d: %+v", i, h)
		}
		reads = append(reads, h.Read)
		t.Logf("%s: %.0f IOPS, p50 %.2f us, p99 %.2f us", h.Host, h.Read.IOPS, us(h.Read.Quantile(50)), us(h.Read.Quantile(99)))
	}
	t.Logf("merged: %.0f IOPS, p50 %.2f us, p99 %.2f us", res.Read.IOPS, us(res.Read.Quantile(50)), us(res.Read.Quantile(99)))
	checkClusterMerge(t, res.RuntimeNs, res.Read, reads)
	checkSeries(t, res)
}

// checkClusterMerge expects the merged figures to be the hosts' combined:
// counts and histograms add, IOPS is their sum (over the longest runtime),
// the mean is weighted and percentiles lie within the hosts'.
func checkClusterMerge(t *testing.T, runtimeNs int64, merged *metrics.DirStats, hosts []*metrics.DirStats) {
	t.Helper()
	var ios, histCount uint64
	var iops, latSum float64
	var minP50, maxP50 uint64 = math.MaxUint64, 0
	for _, h := range hosts {
		ios += h.IOs
		histCount += h.Hist.Count()
		iops += h.IOPS
		latSum += h.Lat.Mean * float64(h.IOs)
		minP50, maxP50 = min(minP50, h.Quantile(50)), max(maxP50, h.Quantile(50))
	}
	if merged.IOs != ios || merged.Hist.Count() != histCount {
		t.Errorf("merged %d I/Os (histogram %d), hosts did %d (%d)", merged.IOs, merged.Hist.Count(), ios, histCount)
	}
	// fio's "All clients" IOPS is the I/Os over the longest runtime, so it
	// equals the hosts' sum only when they ran equally long, which a
	// loaded machine does not promise; it can never exceed the sum.
	if want := float64(ios) * 1e9 / float64(runtimeNs); math.Abs(merged.IOPS-want) > 0.01*want {
		t.Errorf("merged %.0f IOPS, want the %d I/Os over the longest runtime, %.0f", merged.IOPS, ios, want)
	}
	if merged.IOPS > iops*(1+1e-9) {
		t.Errorf("merged %.0f IOPS, more than the hosts' sum %.0f", merged.IOPS, iops)
	}
	if want := latSum / float64(ios); math.Abs(merged.Lat.Mean-want) > 1e-9*want {
		t.Errorf("merged mean %.3f ns, hosts' weighted mean %.3f", merged.Lat.Mean, want)
	}
	if p := merged.Quantile(50); p < minP50 || p > maxP50 {
		t.Errorf("merged p50 %d outside the hosts' %d..%d", p, minP50, maxP50)
	}
}

// TestHostDiesMidStep kills one of three servers while the step runs: the
// step fails naming that host, and the other two hosts' results are kept
// and merged.
func TestHostDiesMidStep(t *testing.T) {
	needFio(t)
	t.Parallel()
	servers := startServers(t, 3, true)
	target := dataFile(t, 8<<20)
	type outcome struct {
		res *metrics.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Driver{Hosts: serverAddrs(servers)}.Run(context.Background(), target, randRead(3*time.Second), nil)
		done <- outcome{res, err}
	}()
	victim := servers[1]
	waitForJob(t, victim)
	victim.kill()
	out := <-done
	var hostErr *HostError
	if !errors.As(out.err, &hostErr) || len(hostErr.Failed) != 1 || !strings.Contains(hostErr.Failed[victim.addr], "no result") {
		t.Fatalf("error %v, want a HostError naming %s", out.err, victim.addr)
	}
	t.Logf("error: %v", out.err)
	res := out.res
	if res == nil || len(res.Hosts) != 3 || res.Hosts[1].Error == "" || res.Hosts[1].Read != nil {
		t.Fatalf("result %+v", res)
	}
	kept := []*metrics.DirStats{res.Hosts[0].Read, res.Hosts[2].Read}
	for _, r := range kept {
		if r == nil || r.IOs == 0 {
			t.Fatalf("a surviving host lost its result: %+v", res.Hosts)
		}
	}
	t.Logf("kept: %.0f + %.0f IOPS, merged %.0f IOPS, p50 %.2f us, p99 %.2f us",
		kept[0].IOPS, kept[1].IOPS, res.Read.IOPS, us(res.Read.Quantile(50)), us(res.Read.Quantile(99)))
	checkClusterMerge(t, res.RuntimeNs, res.Read, kept)
}

// waitForJob waits until the server's job is in its I/O loop: some
// process the server started has issued many reads.
func waitForJob(t *testing.T, s *fioServer) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		for _, pid := range descendants(s.cmd.Process.Pid) {
			if readCalls(pid) >= 20000 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the fio server never started the job")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// descendants lists the processes descended from pid.
func descendants(pid int) []int {
	parent := map[int]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		child, err1 := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		ppid, err2 := strconv.Atoi(fields[1])
		if err1 == nil && err2 == nil {
			parent[child] = ppid
		}
	}
	var out []int
	for child := range parent {
		for p := parent[child]; p > 1; p = parent[p] {
			if p == pid {
				out = append(out, child)
				break
			}
		}
	}
	return out
}

// readCalls is the number of read calls process pid has made.
func readCalls(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "io"))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "syscr: "); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}
