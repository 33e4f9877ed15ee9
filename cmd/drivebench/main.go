// Command drivebench runs storage test plans written in HCL and writes
// review reports from their results.
//
// Usage:
//
//	drivebench validate PLAN        check a plan and its hooks
//	drivebench fmt [PATH...]        format plan files
//	drivebench plan PLAN            list the steps a plan expands to
//	drivebench run PLAN             run a plan and write its reports
//	drivebench report DIR           rewrite the reports of a results folder
//	drivebench compare BASE NEW     list every figure that moved between two runs
//	drivebench import fio FILE...   turn fio JSON outputs into a results folder
//	drivebench export fio PLAN      write the fio job files of a plan
//	drivebench nvme info DEVICE     show an NVMe drive's identity and health
//	drivebench test-hooks DIR...    run the tests of a plan's Starlark hooks
//	drivebench version              print the version
//
// The command holds no logic of its own: it parses flags, wires the
// packages together and decides how to show their output.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes, part of the interface: scripts and CI gate on them.
const (
	exitOK          = 0
	exitCheckFailed = 1
	exitUsage       = 2
	exitStepFailed  = 3
	exitInterrupted = 130
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// stdio is what a command may touch of the outside world, so whole
// commands run in-process in tests.
type stdio struct {
	out, err io.Writer
	// tty says whether out is a terminal (progress line instead of log lines).
	tty    bool
	getenv func(string) string
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, io stdio) int
}

var commands = []command{
	{"validate", "check a plan and its hooks without running anything", cmdValidate},
	{"fmt", "rewrite plan files in the canonical HCL layout; -check and -diff for CI", cmdFmt},
	{"plan", "list the steps a plan expands to, with estimated durations", cmdPlan},
	{"run", "run a plan and write its results and reports", cmdRun},
	{"report", "rewrite the reports of a results folder from its records", cmdReport},
	{"compare", "compare two results folders figure by figure; exit 1 on a regression", cmdCompare},
	{"import", "turn fio JSON outputs into a results folder: drivebench import fio FILE...", cmdImport},
	{"export", "write the fio job files a plan would run: drivebench export fio PLAN", cmdExport},
	{"nvme", "decode NVMe pages, show a device's identity and health, purge a namespace", cmdNVMe},
	{"test-hooks", "run the tests of a plan's Starlark hooks (*_test.star files)", cmdTestHooks},
	{"version", "print the version", cmdVersion},
}

func main() {
	// A hangup (an ssh session dropping) is a request to stop like Ctrl-C
	// and SIGTERM: the first stops the current step and saves what was
	// measured, the reports are written and the run can be resumed; after
	// it, signals take their default action so a second one exits at once.
	// Completed records are already on disk either way.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-ctx.Done()
		stop()
	}()
	// A closed stdout or stderr (drivebench run PLAN | head) must not end a
	// run: writes to a closed pipe fail with EPIPE instead of killing the
	// process, and the output is then dropped (see detachOnClose).
	signal.Ignore(syscall.SIGPIPE)
	io := stdio{out: detachOnClose(os.Stdout), err: detachOnClose(os.Stderr), tty: isTerminal(os.Stdout), getenv: os.Getenv}
	os.Exit(dispatch(ctx, os.Args[1:], io))
}

func dispatch(ctx context.Context, args []string, io stdio) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(io.err)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, args[1:], io)
		}
	}
	fmt.Fprintf(io.err, "drivebench: unknown command %q\n\n", args[0])
	usage(io.err)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "drivebench runs storage test plans and writes review reports.")
	fmt.Fprintln(w, "\nUsage: drivebench COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'drivebench COMMAND -h' for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 all checks passed, 1 a check failed, 2 plan or usage error, 3 a step failed to run, 130 interrupted.")
}

func cmdVersion(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("version", "", "print drivebench's version", io)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fmt.Fprintln(io.out, "drivebench", version)
	return exitOK
}
