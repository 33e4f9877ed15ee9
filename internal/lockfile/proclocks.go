package lockfile

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// The kernel lists every lock in /proc/locks, one a line:
//
//	1: FLOCK  ADVISORY  WRITE 4711 fe:00:9978460 0 EOF
//	1: -> FLOCK  ADVISORY  WRITE 4712 fe:00:9978460 0 EOF
//
// the lock's kind, mode, holder's pid (in the reader's pid namespace),
// and the file as major:minor (hexadecimal) of its file system and inode;
// a line with "->" is a process waiting for the lock, not a holder. It
// names the holder of a flock that wrote no lock file content: a tool
// such as flock(1) or udevadm lock, another user's run, or a run in the
// moment between its lock and its write.

// procLocks is the kernel's list of locks.
const procLocks = "/proc/locks"

// FlockHolders are the processes that hold a flock on the open file f,
// as the kernel lists them; none when it cannot be read.
func FlockHolders(f *os.File) []Holder {
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return nil
	}
	data, err := os.ReadFile(procLocks)
	if err != nil {
		return nil
	}
	var holders []Holder
	for _, pid := range ParseProcLocks(data, uint64(st.Dev), st.Ino) {
		holders = append(holders, process(pid))
	}
	return holders
}

// ParseProcLocks reads, from the content of /proc/locks, the pids that
// hold a flock on the file of device dev and inode ino; a line it cannot
// read is skipped.
func ParseProcLocks(data []byte, dev, ino uint64) []int {
	file := fmt.Sprintf("%02x:%02x:%d", unix.Major(dev), unix.Minor(dev), ino)
	var pids []int
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		f := strings.Fields(string(line))
		// "N:" FLOCK ADVISORY WRITE|READ pid file start end
		if len(f) < 6 || f[1] != "FLOCK" || f[5] != file {
			continue
		}
		if pid, err := strconv.Atoi(f[4]); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}

// process names the process pid from its command line; a process that
// has ended, or that this user may not read, is named by its pid alone.
func process(pid int) Holder {
	h := Holder{PID: pid}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err == nil && len(data) > 0 {
		h.Command = strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	}
	return h
}
