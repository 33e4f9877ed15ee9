package script

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/drivebench/drivebench/internal/addrspace"
	"github.com/drivebench/drivebench/results"
	"go.starlark.net/syntax"
)

// Hooks run in a worker process so that their memory can be bounded: the
// Starlark interpreter has no allocation limit of its own, and a single
// step such as [0] * 300000000 asks the Go runtime for gigabytes, which
// would end drivebench with "fatal error: out of memory" and lose the run.
// The worker is this same executable started again with workerEnv set; it
// limits its own address space (RLIMIT_AS) before it runs any hook, so a
// hook over the limit ends the worker, not the run: the call fails with
// ErrMemoryLimit and the next call starts a fresh worker.
//
// The worker serves one call at a time over its stdin and stdout (gob).
// A Func in a hook's arguments stays in drivebench: the worker gets a
// handle and asks for each call's result through the pipe. A worker left
// idle is stopped after workerIdle.

// ErrMemoryLimit is the cause of an [*Error] for a hook that used more
// memory than [Limits.Memory].
var ErrMemoryLimit = errors.New("memory limit exceeded")

const (
	// workerEnv, set in a process's environment, makes it a hook worker
	// with the memory limit in bytes it holds.
	workerEnv = addrspace.WorkerEnv
	// workerArg is the worker's first argument, so ps shows what it is.
	workerArg = "hook-worker"
	// workerIdle is how long a worker waits for its next call before it is
	// stopped.
	workerIdle = 2 * time.Second
	// workerGrace is how long past a call's time limit drivebench waits for
	// the worker's answer before it stops the worker.
	workerGrace = 5 * time.Second
)

// The calls a worker serves, one per Runtime method.
const (
	opCall      = "call"
	opHas       = "has"
	opSignature = "signature"
	opCheck     = "check"
	opSteady    = "steady"
	opNext      = "next"
	opParse     = "parse"
	opSummary   = "summary"
	opTests     = "tests"
)

// request is what drivebench sends the worker: a call, or the result of a
// Func the running hook called.
type request struct {
	Call  *callRequest
	Reply *funcReply
}

// callRequest is one Runtime method call.
type callRequest struct {
	Op   string
	Root string
	// Deadline is the caller's context's deadline, zero for none.
	Deadline       time.Time
	MaxSteps       uint64
	Timeout        time.Duration
	File, Function string
	Args           []wireValue
	// HookArgs is the plan's args for the hook, nil for none.
	HookArgs *wireValue
	// Params and WithArgs are CheckFunction's.
	Params   []string
	WithArgs bool
	// Filter is RunTests' pattern, "" for every test.
	Filter string
	// Stdout, Stderr and ExitCode are Parse's.
	Stdout, Stderr string
	ExitCode       int
}

type funcReply struct {
	Value float64
	Err   string
}

// response is what the worker sends back: a Func call to answer, or the
// call's result.
type response struct {
	FuncCall *funcCall
	Done     *callResult
}

type funcCall struct {
	Func int
	Args []float64
}

// callResult holds what each method returns; only its own fields are set.
type callResult struct {
	Verdicts []Verdict
	Steady   SteadyDecision
	Value    wireValue
	Metrics  map[string]float64
	Sections []results.SummarySection
	Tests    []wireTest
	Prints   []string
	Err      *wireError
}

type wireTest struct {
	File, Test string
	Err        *wireError
	Prints     []string
	Duration   time.Duration
}

// worker runs one Runtime's calls in a child process, starting it when
// needed and stopping it when idle.
type worker struct {
	mu   sync.Mutex
	proc *workerProc
	idle *time.Timer
}

// workerProc is a running worker.
type workerProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	enc    *gob.Encoder
	dec    *gob.Decoder
	stderr *tailBuffer
	// killed says why drivebench stopped the process, if it did.
	killMu sync.Mutex
	killed error
}

// do runs c in the worker, answering the hook's Func calls from funcs.
func (w *worker) do(ctx context.Context, c *callRequest, memory int64, funcs []Func) (*callResult, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.idle != nil {
		w.idle.Stop()
	}
	defer func() { w.idle = time.AfterFunc(workerIdle, w.stopIdle) }()
	if err := ctx.Err(); err != nil {
		return nil, &Error{File: c.File, Msg: "hook not run: " + context.Cause(ctx).Error(), Err: err}
	}
	if w.proc == nil {
		p, err := startWorker(memory)
		if err != nil {
			return nil, &Error{File: c.File, Msg: "hooks cannot run: " + err.Error(), Err: err}
		}
		w.proc = p
	}
	p := w.proc
	c.Deadline, _ = ctx.Deadline()
	call := &workerCall{p: p}
	stopCtx := context.AfterFunc(ctx, func() { call.cancel(ctx.Err()) })
	defer func() {
		stopCtx()
		call.end()
	}()
	if c.Op != opTests { // each test has its own time limit, enforced in the worker
		guard := time.AfterFunc(c.Timeout+workerGrace, func() { p.kill(ErrTimeout) })
		defer guard.Stop()
	}
	res, err := p.exchange(c, funcs)
	if err != nil {
		w.proc = nil
		return nil, p.failure(ctx, c, memory, err)
	}
	if ctx.Err() != nil && res.Err != nil && wireCauses[res.Err.Cause] == context.Canceled {
		// stopped at drivebench's request: say why, as in-process
		res.Err.Msg = "hook stopped: " + context.Cause(ctx).Error()
		res.Err.Cause = toWireError(ctx.Err()).Cause
	}
	return res, nil
}

// stopIdle stops the worker after a while without calls.
func (w *worker) stopIdle() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopLocked()
}

// close stops the worker now.
func (w *worker) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.idle != nil {
		w.idle.Stop()
	}
	w.stopLocked()
}

func (w *worker) stopLocked() {
	if w.proc != nil {
		w.proc.stdin.Close() // the worker exits at the end of its input
		w.proc.cmd.Wait()
		w.proc = nil
	}
}

// startWorker starts this executable as a hook worker limited to memory
// bytes. It runs in a process group of its own, so a Ctrl-C at the
// terminal reaches drivebench, which decides what to stop. It needs no
// death signal (which Linux ties to the starting thread, not the process):
// when drivebench ends, the worker's input ends and so does the worker.
func startWorker(memory int64) (*workerProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find drivebench's own executable to start the hook worker: %v", err)
	}
	cmd := exec.Command(exe, workerArg)
	cmd.Env = append(os.Environ(), workerEnv+"="+strconv.FormatInt(memory, 10))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &workerProc{cmd: cmd, stderr: &tailBuffer{max: 16 << 10}}
	cmd.Stderr = p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start the hook worker %s: %v", exe, err)
	}
	p.enc, p.dec = gob.NewEncoder(p.stdin), gob.NewDecoder(stdout)
	return p, nil
}

// exchange sends c and answers the worker until it returns the result.
func (p *workerProc) exchange(c *callRequest, funcs []Func) (*callResult, error) {
	if err := p.enc.Encode(request{Call: c}); err != nil {
		return nil, err
	}
	for {
		var resp response
		if err := p.dec.Decode(&resp); err != nil {
			return nil, err
		}
		if resp.Done != nil {
			return resp.Done, nil
		}
		if resp.FuncCall == nil {
			return nil, errors.New("the hook worker sent an empty answer")
		}
		if err := p.enc.Encode(request{Reply: answer(resp.FuncCall, funcs)}); err != nil {
			return nil, err
		}
	}
}

// answer calls the Func the hook called.
func answer(fc *funcCall, funcs []Func) *funcReply {
	if fc.Func < 0 || fc.Func >= len(funcs) {
		return &funcReply{Err: "no such function"}
	}
	y, err := funcs[fc.Func](fc.Args...)
	if err != nil {
		return &funcReply{Err: err.Error()}
	}
	return &funcReply{Value: y}
}

// workerCall is one call in a worker, which its caller's context may
// cancel.
type workerCall struct {
	p     *workerProc
	mu    sync.Mutex
	ended bool
	grace *time.Timer
}

// cancel asks the worker to stop the running hook, as a canceled context
// stops it in-process, and stops the worker if it has not answered within
// workerGrace.
func (c *workerCall) cancel(cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return
	}
	c.p.cmd.Process.Signal(syscall.SIGUSR1)
	c.grace = time.AfterFunc(workerGrace, func() { c.p.kill(cause) })
}

// end marks the call over, so that a late cancel stops nothing.
func (c *workerCall) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	if c.grace != nil {
		c.grace.Stop()
	}
}

// kill stops the worker for cause.
func (p *workerProc) kill(cause error) {
	p.killMu.Lock()
	if p.killed == nil {
		p.killed = cause
	}
	p.killMu.Unlock()
	p.cmd.Process.Kill()
}

// failure explains a worker that stopped during a call: drivebench stopped
// it (an interruption, a hook past its time limit), its memory ran out, or
// it failed for another reason, which its last output says.
func (p *workerProc) failure(ctx context.Context, c *callRequest, memory int64, ioErr error) error {
	p.stdin.Close()
	waitErr := p.cmd.Wait()
	p.killMu.Lock()
	killed := p.killed
	p.killMu.Unlock()
	e := p.classify(ctx, c, memory, ioErr, killed, waitErr)
	e.File, e.Line, e.Col = definition(c.Root, c.File, c.Function)
	return e
}

// classify says why the worker stopped.
func (p *workerProc) classify(ctx context.Context, c *callRequest, memory int64, ioErr, killed, waitErr error) *Error {
	switch {
	case killed == ErrTimeout:
		return &Error{Msg: fmt.Sprintf("hook stopped: %s ran longer than the time limit of %s and did not stop; "+
			"look for a loop that never ends, or raise the time limit if the hook is slow but correct", c.Function, c.Timeout), Err: ErrTimeout}
	case killed != nil:
		return &Error{Msg: "hook stopped: " + context.Cause(ctx).Error(), Err: killed}
	case p.stderr.outOfMemory():
		return &Error{Msg: fmt.Sprintf("hook stopped: %s used more than the memory limit of %s; "+
			"look for a list or string that grows without bound, or raise hook_memory in the plan if the hook needs more%s",
			c.Function, formatBytes(memory), userLimit()), Err: ErrMemoryLimit}
	}
	detail := strings.TrimSpace(p.stderr.firstLine())
	if detail == "" {
		detail = fmt.Sprint(ioErr)
	}
	return &Error{Msg: fmt.Sprintf("hook stopped: the hook worker running %s failed (%v): %s",
		c.Function, waitErr, detail), Err: ioErr}
}

// userLimit names the address-space limit drivebench runs under, which
// its hook worker inherits and cannot exceed, or is "" when there is none.
func userLimit() string {
	limit, ok := addrspace.Limit()
	if !ok {
		return ""
	}
	return fmt.Sprintf(" (the hook worker also runs under drivebench's address-space limit, ulimit -v %d, "+
		"which may have stopped it first: raise that limit too if the hook needs more than it leaves)", limit>>10)
}

// definition is where function is defined in file, for an error the
// worker could not position itself: the file relative to the plan folder
// and the line and column of the def, or line 0 when it cannot be found.
// Parsing runs none of the file's code.
func definition(rootDir, file, function string) (name string, line, col int) {
	r, err := resolveRoot(rootDir)
	if err != nil {
		return file, 0, 0
	}
	p, err := r.resolve(file, r.abs)
	if err != nil {
		return file, 0, 0
	}
	src, err := os.ReadFile(p.real)
	if err != nil {
		return p.name, 0, 0
	}
	f, err := fileOptions.Parse(p.name, src, 0)
	if err != nil {
		return p.name, 0, 0
	}
	for _, stmt := range f.Stmts {
		if def, ok := stmt.(*syntax.DefStmt); ok && def.Name.Name == function {
			return p.name, int(def.Name.NamePos.Line), int(def.Name.NamePos.Col)
		}
	}
	return p.name, 0, 0
}

// formatBytes shows a memory limit in binary units.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// tailBuffer keeps the start and the last max bytes of a worker's stderr,
// where the Go runtime says why it stopped.
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	first []byte
	buf   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.first) < 512 {
		t.first = append(t.first, p[:min(len(p), 512-len(t.first))]...)
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// outOfMemory says whether the worker reported running out of memory.
func (t *tailBuffer) outOfMemory() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return bytes.Contains(t.first, []byte("out of memory")) || bytes.Contains(t.buf, []byte("out of memory")) ||
		bytes.Contains(t.first, []byte("cannot allocate memory"))
}

func (t *tailBuffer) firstLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	line, _, _ := strings.Cut(string(t.first), "\n")
	return line
}
