// Command drivebench runs storage test plans written in HCL and writes
// review reports from their results.
//
// Usage:
//
//	drivebench init [TARGET]        write a starter plan for a device or file
//	drivebench validate PLAN        check a plan and its hooks
//	drivebench fmt [PATH...]        format plan files
//	drivebench plan PLAN            list the steps a plan expands to
//	drivebench run PLAN             run a plan and write its reports
//	drivebench report DIR           rewrite the reports of a results folder
//	drivebench compare BASE NEW     list every figure that moved between two runs
//	drivebench import fio FILE...   turn fio JSON outputs into a results folder
//	drivebench export fio PLAN      write the fio job files of a plan
//	drivebench nvme info DEVICE     show an NVMe drive's identity and health
//	drivebench catalog add DIR...   put runs in the catalog; ls, query, fleet, rollup, trend, export, report
//	drivebench trace stat FILE      characterize a block trace; trace capture, trace mix
//	drivebench test-hooks DIR...    run the tests of a plan's Starlark hooks
//	drivebench completion SHELL     print a bash, zsh or fish completion script
//	drivebench man                  print the manual page
//	drivebench help COMMAND         show a command's help (as COMMAND -h)
//	drivebench help plan            the plan language reference (also hooks, catalog, trace)
//	drivebench version              print the version (also --version)
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
	"runtime/debug"
	"slices"
	"syscall"
	"time"

	"github.com/agext/levenshtein"

	"github.com/drivebench/drivebench/docs"
)

// Exit codes, part of the interface: scripts and CI gate on them.
const (
	exitOK          = 0
	exitCheckFailed = 1
	exitUsage       = 2
	exitStepFailed  = 3
	exitInterrupted = 130
)

// version is set at build time with -ldflags "-X main.version=..."; when
// it is not, the build info says (see buildVersion).
var version = ""

// stdio is what a command may touch of the outside world, so whole
// commands run in-process in tests.
type stdio struct {
	out, err io.Writer
	// in is standard input (fmt -).
	in io.Reader
	// tty and errTTY say whether out and err are terminals (the live
	// view instead of log lines); size and errSize ask their sizes.
	tty, errTTY   bool
	size, errSize func() (width, height int)
	getenv        func(string) string
	// heartbeat is how often a running step prints a line when out is not
	// a terminal; 0 means heartbeatEvery.
	heartbeat time.Duration
	// describe, when set, receives a command's flags when it is asked for
	// help, so completion scripts and the man page list them.
	describe func(*flagSet)
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, io stdio) int
	// sub lists the subcommands of a command group (nvme, import, export,
	// completion), for help, completion and the man page.
	sub []command
}

var commands []command

func init() {
	commands = []command{
		{name: "init", summary: "write a commented starter plan for a device or file, its size and block size detected", run: cmdInit},
		{name: "validate", summary: "check a plan and its hooks without running anything", run: cmdValidate},
		{name: "fmt", summary: "rewrite plan files in the canonical HCL layout; -check and -diff for CI", run: cmdFmt},
		{name: "plan", summary: "list the steps a plan expands to, with estimated durations", run: cmdPlan},
		{name: "run", summary: "run a plan and write its results and reports", run: cmdRun},
		{name: "report", summary: "rewrite the reports of a results folder from its records", run: cmdReport},
		{name: "compare", summary: "compare two results folders figure by figure; exit 1 on a regression", run: cmdCompare},
		{name: "import", summary: "turn fio JSON outputs into a results folder: drivebench import fio FILE...", run: cmdImport, sub: []command{{name: "fio"}}},
		{name: "export", summary: "write the fio job files a plan would run: drivebench export fio PLAN", run: cmdExport, sub: []command{{name: "fio"}}},
		{name: "nvme", summary: "decode NVMe pages, show a device's identity and health, purge a namespace", run: cmdNVMe, sub: nvmeCommands},
		{name: "catalog", summary: "a database of every run: add, ls, query, fleet, rollup, trend, export, report", run: cmdCatalog, sub: catalogCommands},
		{name: "trace", summary: "record and read block traces: capture, stat, mix", run: cmdTrace, sub: traceCommands},
		{name: "test-hooks", summary: "run the tests of a plan's Starlark hooks (*_test.star files)", run: cmdTestHooks},
		{name: "completion", summary: "print a shell completion script: drivebench completion bash|zsh|fish", run: cmdCompletion, sub: completionShells},
		{name: "man", summary: "print the manual page (roff), made from the commands' help", run: cmdMan},
		{name: "help", summary: "show the help of a command: drivebench help COMMAND is drivebench COMMAND -h", run: cmdHelp},
		{name: "version", summary: "print the version", run: cmdVersion},
	}
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
	io := stdio{out: detachOnClose(os.Stdout), err: detachOnClose(os.Stderr), in: os.Stdin, getenv: os.Getenv,
		tty: isTerminal(os.Stdout), errTTY: isTerminal(os.Stderr), size: terminalSize(os.Stdout), errSize: terminalSize(os.Stderr)}
	os.Exit(dispatch(ctx, os.Args[1:], io))
}

func dispatch(ctx context.Context, args []string, io stdio) int {
	if len(args) == 0 {
		usage(io.err)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(io.out)
		return exitOK
	case "-version", "--version":
		return cmdVersion(ctx, args[1:], io)
	}
	if c := findCommand(commands, args[0]); c != nil {
		return c.run(ctx, args[1:], io)
	}
	fmt.Fprintf(io.err, "drivebench: unknown command %q%s\n\n", args[0], suggestCommand(commands, args[0]))
	usage(io.err)
	return exitUsage
}

func findCommand(cmds []command, name string) *command {
	for i := range cmds {
		if cmds[i].name == name {
			return &cmds[i]
		}
	}
	return nil
}

// suggestCommand names the command closest to a mistyped one.
func suggestCommand(cmds []command, name string) string {
	best, bestDist := "", 3
	for _, c := range cmds {
		if d := levenshtein.Distance(name, c.name, nil); d < bestDist {
			best, bestDist = c.name, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

const exitCodesLine = "Exit codes: 0 all checks passed, 1 a check failed, 2 plan or usage error, 3 a step failed to run, 130 interrupted."

func usage(w io.Writer) {
	fmt.Fprintln(w, "drivebench runs storage test plans and writes review reports.")
	fmt.Fprintln(w, "\nUsage: drivebench COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nReference (drivebench help TOPIC):")
	for _, t := range helpTopics {
		fmt.Fprintf(w, "  %-10s %s\n", t.name, t.summary)
	}
	fmt.Fprintln(w, "\nRun 'drivebench help COMMAND' or 'drivebench COMMAND -h' for a command's flags.")
	fmt.Fprintln(w, exitCodesLine)
}

// helpTopic is a reference document that help prints: the docs/ page a
// drivebench installed with go install has no checkout to read in.
type helpTopic struct {
	name, summary, text string
}

var helpTopics = []helpTopic{
	{"plan", "the plan language: every block, attribute and function (docs/plan-language.md)", docs.PlanLanguage},
	{"hooks", "expectations, acceptance and Starlark hooks (docs/hooks.md)", docs.Hooks},
	{"figures", "every figure: its unit, which way is better, its name in each place, and how a report chooses it (docs/figures.md)", docs.Figures},
	{"catalog", "the catalog's commands and its schema, for SQL of your own (docs/catalog.md)", docs.Catalog},
	{"trace", "the block trace formats drivebench reads, their units, and the trace commands (docs/trace.md)", docs.Trace},
}

func findTopic(name string) *helpTopic {
	for i := range helpTopics {
		if helpTopics[i].name == name {
			return &helpTopics[i]
		}
	}
	return nil
}

// cmdHelp shows the help of a command: "help run" is "run -h" and
// "help nvme info" is "nvme info -h". A topic's reference follows a
// command of its name ("help plan" is "plan -h", then the plan
// language) or stands alone ("help hooks").
func cmdHelp(ctx context.Context, args []string, io stdio) int {
	if len(args) == 0 {
		usage(io.out)
		return exitOK
	}
	c := findCommand(commands, args[0])
	if t := findTopic(args[0]); t != nil && len(args) == 1 {
		if c != nil {
			c.run(ctx, []string{"-h"}, io)
			fmt.Fprintln(io.out)
		}
		fmt.Fprint(io.out, t.text)
		return exitOK
	}
	if c == nil || c.name == "help" {
		if c == nil {
			fmt.Fprintf(io.err, "drivebench help: unknown command %q%s\n\n", args[0], suggestCommand(commands, args[0]))
			usage(io.err)
			return exitUsage
		}
		usage(io.out)
		return exitOK
	}
	return c.run(ctx, append(slices.Clone(args[1:]), "-h"), io)
}

func cmdVersion(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("version", "", "Print drivebench's version: the release it was installed at (go install ...@VERSION), or the commit it was built from and whether the checkout had changes.", io)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	fmt.Fprintln(io.out, "drivebench", buildVersion())
	return exitOK
}

// buildVersion says which drivebench this is: the -X main.version value,
// else the module version Go recorded (a tag with go install ...@v1.2.0,
// a pseudo-version in a git checkout), with the commit and a dirty flag
// when the build info has them.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return versionOr("unknown")
	}
	return describeBuild(version, bi)
}

func versionOr(def string) string {
	if version != "" {
		return version
	}
	return def
}

// describeBuild formats a version from an explicit one and build info.
func describeBuild(explicit string, bi *debug.BuildInfo) string {
	v := explicit
	if v == "" {
		v = bi.Main.Version
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, when string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	extra := "commit " + rev
	if dirty {
		extra += ", modified"
	}
	if when != "" {
		extra += ", " + when
	}
	return v + " (" + extra + ")"
}
