package lockfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Holder is a process holding a lock, as its lock file records it: one
// JSON object a line, the exclusive holder alone, shared holders one
// after another.
type Holder struct {
	PID int `json:"pid"`
	// Command is the holder's command line.
	Command []string `json:"command"`
	// Started is when it took the lock.
	Started time.Time `json:"started"`
	Shared  bool      `json:"shared,omitempty"`
	// For is what it holds the lock for, such as the results folder of
	// the run that measures a drive.
	For string `json:"for,omitempty"`
}

// Self is this process, taking a lock now for what for says.
func Self(forWhat string) Holder {
	return Holder{PID: os.Getpid(), Command: os.Args, Started: time.Now(), For: forWhat}
}

// line is the holder as it is written in a lock file.
func (h Holder) line() []byte {
	data, _ := json.Marshal(h) // a struct of strings, numbers and a time: it always marshals
	return append(data, '\n')
}

// Parse reads the holders a lock file names. A line that is not a holder
// (torn by a process killed while it wrote, or written by hand) is left
// out: the content only names holders, the flock is the lock.
func Parse(data []byte) []Holder {
	var holders []Holder
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		var h Holder
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &h) != nil || h.PID <= 0 {
			continue
		}
		holders = append(holders, h)
	}
	return holders
}

// Live keeps the holders whose process still exists: a shared holder
// that was killed leaves its line behind. When none is found alive, as
// for a holder in another pid namespace, it keeps them all.
func Live(holders []Holder) []Holder {
	var live []Holder
	for _, h := range holders {
		if err := unix.Kill(h.PID, 0); err == nil || errors.Is(err, unix.EPERM) {
			live = append(live, h)
		}
	}
	if len(live) == 0 {
		return holders
	}
	return live
}

// String names the holder for a message:
// pid 4711 (drivebench run -out results/a plan.hcl) since 2026-05-01 15:04:05 CEST.
func (h Holder) String() string {
	s := "pid " + strconv.Itoa(h.PID)
	if len(h.Command) > 0 {
		s += " (" + CommandLine(h.Command) + ")"
	}
	if !h.Started.IsZero() {
		s += " since " + h.Started.Local().Format("2006-01-02 15:04:05 MST")
	}
	if h.For != "" {
		s += " for " + h.For
	}
	return s
}

// CommandLine writes args as a shell would take them, quoting those that
// need it.
func CommandLine(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return strings.Join(quoted, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,@%+-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// BusyError is a lock held by another process in a way that excludes the
// one asked for.
type BusyError struct {
	Path string
	// Holders are the processes the lock file names; none when it names
	// none (its holder has only just locked it, or wrote nothing).
	Holders []Holder
}

// Error says who holds the lock.
func (e *BusyError) Error() string {
	return fmt.Sprintf("%s is locked by %s", e.Path, e.Who())
}

// Who names the holders: "pid 4711 (drivebench run ...) since ...", or
// "another process" when neither the lock file nor the kernel names one.
func (e *BusyError) Who() string {
	if len(e.Holders) == 0 {
		return "another process, which has not written its name in the lock file"
	}
	return Names(e.Holders)
}

// Names names holders for a message, joined by "and".
func Names(holders []Holder) string {
	names := make([]string, len(holders))
	for i, h := range holders {
		names[i] = h.String()
	}
	return strings.Join(names, " and ")
}

// Shared reports whether every holder named holds the lock shared: a
// read that may go beside them if it is shared too.
func (e *BusyError) Shared() bool {
	for _, h := range e.Holders {
		if !h.Shared {
			return false
		}
	}
	return len(e.Holders) > 0
}
