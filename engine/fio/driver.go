package fio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// Driver runs workloads with fio, locally or on fio servers. The zero
// value runs the fio found on PATH on this machine.
type Driver struct {
	// Binary is the fio executable; "" looks fio up on PATH.
	Binary string
	// Hosts are fio servers (`fio --server`) that each run the whole
	// workload at once, addressed as fio's --client takes them: "name",
	// "name,port", "ip:10.0.0.2,8765". Empty runs fio locally.
	Hosts []string
	// KeepDir, when set, receives the job file of each run as Name.fio,
	// so that anyone can rerun it by hand.
	KeepDir string
	// Name names the fio job and the kept file; the scheduler sets it to
	// the step's ID so the file lies beside the step's record. "" means
	// "drivebench".
	Name string
}

// ForStep names the job and its kept file after the step and keeps it
// beside the step's record (steps/<id>.fio), so anyone can run it again
// by hand.
func (d Driver) ForStep(s driver.Step) driver.Driver {
	d.Name, d.KeepDir = s.ID, s.Dir
	return d
}

// Check is Translatable: a workload fio cannot express is refused before
// anything runs.
func (d Driver) Check(w workload.Workload) error {
	if w.IsFileSet() {
		return untranslatable("files", "the fio engine does not run file sets: fio times no file operation and keeps no job's own seconds, which a file set's record holds; use engine = \"native\" (drivebench export fio writes the fio job of the set)")
	}
	return Translatable(w)
}

// ErrNotInstalled is matched (errors.Is) by the error Run returns when
// there is no fio to run.
var ErrNotInstalled = errors.New("fio is not installed")

// stopGrace is how long fio has to write its report after SIGINT before
// it is killed.
const stopGrace = 2 * time.Second

// Run translates w into a fio job file, runs it against t and returns
// what fio measured, with a time series from fio's interval logs.
//
// An attribute fio cannot express gives a nil result and an
// *UntranslatableError before fio starts; a missing fio gives an error
// matching ErrNotInstalled. live, when not nil, receives a sample per
// second from fio's status reports (local runs only: fio's client does
// not relay them). On ctx cancellation fio is interrupted, writes its
// report of the run so far, and Run returns that with ctx.Err(). A job
// that fio reports failed, a fio that dies, or a host that returns
// nothing (a *HostError) gives the partial result with the error.
func (d Driver) Run(ctx context.Context, t driver.Target, w workload.Workload, live func(metrics.Sample)) (*metrics.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	spec, err := buildSpec(d.name(), t, w)
	if err != nil {
		return nil, err
	}
	hosts, err := parseHosts(d.Hosts)
	if err != nil {
		return nil, err
	}
	bin, err := d.binary()
	if err != nil {
		return nil, err
	}
	if err := d.keep(spec); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "drivebench-fio-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	inv, err := prepare(tmp, spec, hosts, live != nil)
	if err != nil {
		return nil, err
	}
	return inv.run(ctx, bin, live)
}

func (d Driver) name() string {
	if d.Name == "" {
		return "drivebench"
	}
	return d.Name
}

// binary finds the fio executable.
func (d Driver) binary() (string, error) {
	if d.Binary != "" {
		if _, err := exec.LookPath(d.Binary); err != nil {
			return "", fmt.Errorf("%w: %s: %v", ErrNotInstalled, d.Binary, err)
		}
		return d.Binary, nil
	}
	bin, err := exec.LookPath("fio")
	if err != nil {
		return "", fmt.Errorf(`%w: no fio on PATH; install the fio package (apt-get install fio, dnf install fio) or set engine = "native"`, ErrNotInstalled)
	}
	return bin, nil
}

// keep writes the job file into KeepDir.
func (d Driver) keep(spec jobSpec) error {
	if d.KeepDir == "" {
		return nil
	}
	if err := os.MkdirAll(d.KeepDir, 0o755); err != nil {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(d.KeepDir, d.name()+".fio"), []byte(spec.render()))
}

// invocation is one fio command line and where its logs go.
type invocation struct {
	args    []string
	logDirs []string
	hosts   []host
}

// prepare writes the job files of the run into tmp, each with interval
// logging into its own folder: one file locally, one per host in client
// mode (fio names client-side logs after the host, which need not be
// unique when several servers share an address).
func prepare(tmp string, spec jobSpec, hosts []host, status bool) (*invocation, error) {
	inv := &invocation{args: []string{"--output-format=json+"}, hosts: hosts}
	if len(hosts) == 0 {
		if status {
			inv.args = append(inv.args, "--status-interval=1")
		}
		file, err := writeRunFile(tmp, spec)
		if err != nil {
			return nil, err
		}
		inv.args = append(inv.args, file)
		inv.logDirs = []string{tmp}
		return inv, nil
	}
	files := make([]string, len(hosts))
	for i := range hosts {
		dir := hostDir(tmp, i)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		file, err := writeRunFile(dir, spec)
		if err != nil {
			return nil, err
		}
		files[i] = file
		inv.logDirs = append(inv.logDirs, dir)
	}
	inv.args = append(inv.args, clientArgs(hosts, files)...)
	return inv, nil
}

// writeRunFile writes the job file with logging into dir.
func writeRunFile(dir string, spec jobSpec) (string, error) {
	file := filepath.Join(dir, "job.fio")
	return file, os.WriteFile(file, []byte(spec.render(logOptions(dir)...)), 0o644)
}

// run starts fio, streams its output and turns it into the result.
func (inv *invocation) run(ctx context.Context, bin string, live func(metrics.Sample)) (*metrics.Result, error) {
	cmd := exec.CommandContext(ctx, bin, inv.args...)
	// fio gets its own process group so that a terminal's Ctrl-C reaches
	// drivebench alone, which stops fio through the context.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = stopGrace
	var stderr tailBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stream := &reportStream{}
	if live != nil && len(inv.hosts) == 0 {
		stream.onReport = (&liveSampler{live: live}).report
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start fio: %w", err)
	}
	readErr := stream.consume(stdout)
	waitErr := cmd.Wait()
	if readErr != nil && waitErr == nil {
		waitErr = readErr
	}
	return inv.collect(ctx, stream.output(), stderr.lines(), waitErr)
}

// collect parses fio's output and decides the error of the run.
func (inv *invocation) collect(ctx context.Context, out []byte, stderr []string, waitErr error) (*metrics.Result, error) {
	o, perr := Parse(out)
	if perr != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fioFailed(waitErr, stderr, perr)
	}
	o.Messages = append(o.Messages, stderr...)
	res, errs := inv.result(o)
	switch {
	case ctx.Err() != nil:
		return res, ctx.Err()
	case waitErr != nil && len(inv.hosts) == 0:
		errs = append(errs, fioFailed(waitErr, stderr, nil))
	}
	if o.Truncated {
		errs = append(errs, errors.New("fio stopped while writing its report; the result is its last status report"))
	}
	return res, errors.Join(errs...)
}

// result is the run's merged result, with the per-host breakdown in
// client mode and the time series, and the errors fio reported.
func (inv *invocation) result(o *Output) (*metrics.Result, []error) {
	var errs []error
	var res *metrics.Result
	if len(inv.hosts) == 0 {
		res = o.Result()
		for _, j := range o.Jobs {
			if j.Error != 0 {
				errs = append(errs, jobError(j))
			}
		}
	} else {
		var byHost []metrics.HostResult
		var err error
		res, byHost, err = splitByHost(o, inv.hosts)
		if res == nil {
			res = &metrics.Result{Start: o.Time}
		}
		res.Hosts = byHost
		if err != nil {
			errs = append(errs, err)
		}
	}
	if res != nil {
		res.Series = readSeries(inv.logDirs, inv.jobsByLogDir(o))
		res.Latency = o.LatencyDefinition()
	}
	if res == nil {
		errs = append(errs, errors.New("fio's report lists no jobs"))
	}
	return res, errs
}

// jobsByLogDir lists the jobs whose logs are in each log folder, in
// fio's job order, which numbers the logs.
func (inv *invocation) jobsByLogDir(o *Output) [][]Job {
	if len(inv.hosts) == 0 {
		return [][]Job{o.Jobs}
	}
	jobs := make([][]Job, len(inv.hosts))
	for i, h := range inv.hosts {
		for _, j := range o.Jobs {
			if j.Host == h.key {
				jobs[i] = append(jobs[i], j)
			}
		}
	}
	return jobs
}

// jobError describes a job fio reports failed, by its errno.
func jobError(j Job) error {
	where := ""
	if j.Host != "" {
		where = " on " + j.Host
	}
	return fmt.Errorf("fio job %s%s failed with error %d (%v)", j.Name, where, j.Error, syscall.Errno(j.Error))
}

// fioFailed describes a fio that exited badly, with the end of what it
// printed to stderr.
func fioFailed(waitErr error, stderr []string, parseErr error) error {
	var b strings.Builder
	b.WriteString("fio failed")
	if waitErr != nil {
		b.WriteString(" (" + waitErr.Error() + ")")
	}
	if len(stderr) > 0 {
		shown := stderr[max(0, len(stderr)-5):]
		b.WriteString(": " + strings.Join(shown, " / "))
	}
	if parseErr != nil {
		b.WriteString("; " + parseErr.Error())
	}
	return errors.New(b.String())
}

// tailBuffer keeps the last 64 KiB written to it.
type tailBuffer struct{ buf []byte }

const tailSize = 64 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = t.buf[len(t.buf)-tailSize:]
	}
	return len(p), nil
}

// lines are the non-empty lines kept.
func (t *tailBuffer) lines() []string {
	var out []string
	for l := range bytes.SplitSeq(t.buf, []byte("\n")) {
		if s := strings.TrimSpace(string(l)); s != "" {
			out = append(out, s)
		}
	}
	return out
}
