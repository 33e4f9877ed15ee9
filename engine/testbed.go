package engine

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// DetectTestbed reads what the machine says about itself: CPU, memory,
// kernel and operating system. Facts that cannot be read are left out.
func DetectTestbed() map[string]string {
	facts := map[string]string{"cpus": strconv.Itoa(runtime.NumCPU())}
	if host, err := os.Hostname(); err == nil {
		facts["hostname"] = host
	}
	if model := firstField("/proc/cpuinfo", "model name", ':'); model != "" {
		facts["cpu"] = model
	}
	if mem := firstField("/proc/meminfo", "MemTotal", ':'); mem != "" {
		facts["memory"] = formatMemInfo(mem)
	}
	var uts unix.Utsname
	if unix.Uname(&uts) == nil {
		facts["kernel"] = unix.ByteSliceToString(uts.Sysname[:]) + " " + unix.ByteSliceToString(uts.Release[:])
		facts["arch"] = unix.ByteSliceToString(uts.Machine[:])
	}
	if osName := firstField("/etc/os-release", "PRETTY_NAME", '='); osName != "" {
		facts["os"] = strings.Trim(osName, `"`)
	}
	return facts
}

// firstField returns the value of the first "key<sep>value" line of file.
func firstField(file, key string, sep byte) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), string(sep))
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// formatMemInfo turns "24578324 kB" into "23.4 GiB".
func formatMemInfo(s string) string {
	kb, err := strconv.ParseFloat(strings.TrimSuffix(s, " kB"), 64)
	if err != nil {
		return s
	}
	return fmt.Sprintf("%.1f GiB", kb/(1<<20))
}
