package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/drivebench/drivebench/engine/exec"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// Limits of what an exec step's record keeps and its parse hook reads.
const (
	// tailLines is how many of the last lines of each output the record
	// holds; the files beside it hold everything.
	tailLines = 20
	// maxParseInput is how much of the end of each output a parse hook
	// is given.
	maxParseInput = 16 << 20
)

// makeWorkDirs creates the working folder of each drive that exec steps
// run on. A folder the run creates belongs to the account the drive's
// first exec step runs as, so that a server such as PostgreSQL can create
// its files there.
func (r *runner) makeWorkDirs() error {
	ready := map[string]bool{}
	for _, n := range r.graph.Nodes {
		if n.Exec == nil || ready[n.Drive] {
			continue
		}
		ready[n.Drive] = true
		t := r.targets[n.Drive]
		if t.workDir == "" {
			t.workDir = filepath.Join(r.opt.Dir, "work-"+n.Drive)
		}
		_, err := os.Stat(t.workDir)
		created := errors.Is(err, fs.ErrNotExist) || t.madeDir
		if err := os.MkdirAll(t.workDir, 0o755); err != nil {
			return fmt.Errorf("drive %q: create the working folder of its exec steps: %w", n.Drive, err)
		}
		if created && n.Exec.User != "" {
			if err := chownTo(t.workDir, n.Exec.User); err != nil {
				return fmt.Errorf("drive %q: %w", n.Drive, err)
			}
		}
	}
	return nil
}

// chownTo gives a folder the run created to the account exec steps run
// as. Without root it cannot, and the step itself says that it needs
// root to run as another account.
func chownTo(dir, name string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup(name)
	if err != nil {
		return fmt.Errorf("exec steps run as %s: %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return fmt.Errorf("give %s to %s, whom exec steps run as: %w", dir, name, err)
	}
	return nil
}

// execStep runs an exec node's command.
type execStep struct{}

func (execStep) run(ctx context.Context, r *runner, _ int, n *plan.Node, rec *results.Record) error {
	r.runExec(ctx, n, rec)
	return nil
}

func (execStep) reusable() bool { return false }

// runExec runs an exec step's command in the drive's working folder, with
// its output in steps/<id>.stdout and .stderr, and turns the output into
// metrics with the step's parse hook. A command that cannot start, exits
// with a status other than 0 or outlives its timeout fails the step; its
// output is kept either way.
func (r *runner) runExec(ctx context.Context, n *plan.Node, rec *results.Record) {
	x, t := n.Exec, r.targets[n.Drive]
	rec.Engine = "exec"
	cmd := exec.Command{Args: x.Command, Dir: t.workDir, Env: r.execEnv(n, t), User: x.User, Timeout: x.Timeout}
	rec.Command = &results.Command{Args: x.Command, Dir: t.workDir, User: x.User, ExitCode: -1,
		StdoutFile: filepath.Join(results.StepsDir, n.ID+".stdout"), StderrFile: filepath.Join(results.StepsDir, n.ID+".stderr")}
	watched := &watchedStep{node: n, target: t.io, rec: rec}
	finishWatches := startWatches(watched)
	start := time.Now()
	out, err := r.runCommand(ctx, cmd, rec.Command)
	rec.Command.ExitCode, rec.Command.DurationNs, rec.Command.TimedOut = out.ExitCode, int64(out.Duration), out.TimedOut
	rec.Result = &metrics.Result{Start: start, RuntimeNs: int64(out.Duration)}
	finishWatches(rec.Result)
	stdout, stderr := r.readOutputs(rec.Command)
	switch {
	case err != nil && ctx.Err() != nil:
		rec.Status, rec.Error = results.StatusInterrupted, interruptReason(ctx)
		return
	case err != nil:
		rec.Status, rec.Error = results.StatusFailed, err.Error()
		return
	case out.TimedOut:
		rec.Status, rec.Error = results.StatusFailed, fmt.Sprintf(
			"%s ran longer than its timeout of %s and was stopped with every process it started; raise timeout if it needs longer",
			x.Command[0], workload.FormatDuration(x.Timeout))
		return
	case out.ExitCode != 0:
		rec.Status, rec.Error = results.StatusFailed, exitError(x.Command[0], out.ExitCode, rec.Command)
	}
	if x.Parse != nil {
		r.parseOutput(ctx, n, rec, stdout, stderr, out.ExitCode)
	}
}

// runCommand runs cmd with its output in the files rec names.
func (r *runner) runCommand(ctx context.Context, cmd exec.Command, rec *results.Command) (exec.Outcome, error) {
	stdout, err := os.Create(filepath.Join(r.opt.Dir, rec.StdoutFile))
	if err != nil {
		return exec.Outcome{ExitCode: -1}, fmt.Errorf("keep the command's output: %w", err)
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(r.opt.Dir, rec.StderrFile))
	if err != nil {
		return exec.Outcome{ExitCode: -1}, fmt.Errorf("keep the command's output: %w", err)
	}
	defer stderr.Close()
	return exec.Run(ctx, cmd, stdout, stderr)
}

// readOutputs reads the end of the command's outputs and puts their last
// lines in the record.
func (r *runner) readOutputs(c *results.Command) (stdout, stderr string) {
	stdout, _, _ = exec.ReadTail(filepath.Join(r.opt.Dir, c.StdoutFile), maxParseInput)
	stderr, _, _ = exec.ReadTail(filepath.Join(r.opt.Dir, c.StderrFile), maxParseInput)
	c.StdoutTail, c.StderrTail = exec.LastLines(stdout, tailLines), exec.LastLines(stderr, tailLines)
	return stdout, stderr
}

// exitError says how a command failed, with its last line of error
// output.
func exitError(program string, code int, c *results.Command) string {
	msg := fmt.Sprintf("%s exited with status %d", program, code)
	lines := c.StderrTail
	if len(lines) == 0 {
		lines = c.StdoutTail
	}
	if len(lines) > 0 {
		msg += ": " + strings.TrimSpace(lines[len(lines)-1])
	}
	return msg + fmt.Sprintf(" (the whole output is in %s and %s)", c.StdoutFile, c.StderrFile)
}

// parseOutput turns the output into the step's metrics. A hook that
// fails fails the step, unless the command failed already, whose output
// a parser need not understand.
func (r *runner) parseOutput(ctx context.Context, n *plan.Node, rec *results.Record, stdout, stderr string, exitCode int) {
	h := n.Exec.Parse
	metrics, prints, err := r.hooksFor(h.Script).Parse(ctx, h.Script, h.Function, stdout, stderr, exitCode, h.Args)
	rec.Log = append(rec.Log, prints...)
	switch {
	case err != nil && rec.Status == results.StatusOK:
		r.hookFailed(rec, "parse "+n.Source, err)
	case err != nil:
		rec.Log = append(rec.Log, "the parse hook could not read the failed command's output: "+err.Error())
	default:
		rec.Result.Metrics = metrics
	}
}

// execEnv is what drivebench adds to an exec step's environment: its
// own variables, which say where the drive is, then the plan's.
func (r *runner) execEnv(n *plan.Node, t *target) []string {
	resultsDir, _ := filepath.Abs(r.opt.Dir)
	env := []string{
		"DRIVEBENCH_DRIVE=" + n.Drive,
		"DRIVEBENCH_DRIVE_PATH=" + t.io.Path,
		"DRIVEBENCH_DRIVE_DIR=" + t.workDir,
		"DRIVEBENCH_DRIVE_SIZE=" + strconv.FormatInt(t.io.Capacity, 10),
		"DRIVEBENCH_RESULTS=" + resultsDir,
		"DRIVEBENCH_STEP=" + n.ID,
	}
	names := make([]string, 0, len(n.Exec.Env))
	for k := range n.Exec.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		env = append(env, k+"="+n.Exec.Env[k])
	}
	return env
}
