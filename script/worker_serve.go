package script

import (
	"bufio"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"syscall"

	"github.com/drivebench/drivebench/internal/addrspace"
)

// The worker's side of worker.go. Any binary that links this package can
// be a hook worker, the drivebench command and test binaries alike: the
// check runs before main.
func init() {
	addrspace.Release()
	if limit := os.Getenv(workerEnv); limit != "" {
		os.Exit(serveWorker(limit))
	}
}

// serveWorker limits the process's memory and serves calls until its
// input ends. Its protocol runs on the original stdout; anything else
// written to stdout goes to stderr instead.
func serveWorker(limit string) int {
	memory, err := strconv.ParseInt(limit, 10, 64)
	if err != nil || memory <= 0 {
		fmt.Fprintf(os.Stderr, "hook worker: bad memory limit %q\n", limit)
		return 2
	}
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	cancels := make(chan os.Signal, 1)
	signal.Notify(cancels, syscall.SIGUSR1)
	protocol, err := syscall.Dup(1)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hook worker:", err)
		return 2
	}
	if err := syscall.Dup3(2, 1, 0); err != nil {
		fmt.Fprintln(os.Stderr, "hook worker:", err)
		return 2
	}
	if _, err := addrspace.LimitWorker(memory); err != nil {
		fmt.Fprintln(os.Stderr, "hook worker: cannot limit its memory:", err)
		return 2
	}
	out := bufio.NewWriter(os.NewFile(uintptr(protocol), "protocol"))
	s := &workerServer{enc: gob.NewEncoder(out), out: out, dec: gob.NewDecoder(bufio.NewReader(os.Stdin)),
		runtimes: map[string]*Runtime{}, cancels: cancels}
	for {
		var req request
		if err := s.dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintln(os.Stderr, "hook worker:", err)
			return 2
		}
		if req.Call == nil {
			fmt.Fprintln(os.Stderr, "hook worker: a reply without a call")
			return 2
		}
		if err := s.send(response{Done: s.serve(req.Call)}); err != nil {
			fmt.Fprintln(os.Stderr, "hook worker:", err)
			return 2
		}
	}
}

// workerServer runs calls with in-process Runtimes, one per plan folder,
// so each file's top-level code runs once per worker.
type workerServer struct {
	enc      *gob.Encoder
	out      *bufio.Writer
	dec      *gob.Decoder
	runtimes map[string]*Runtime
	// cancels receives SIGUSR1: drivebench's request to stop the running
	// call.
	cancels chan os.Signal
}

func (s *workerServer) send(r response) error {
	if err := s.enc.Encode(r); err != nil {
		return err
	}
	return s.out.Flush()
}

// proxy is the worker's stand-in for a Func that stays in drivebench.
func (s *workerServer) proxy(handle int) Func {
	return func(args ...float64) (float64, error) {
		if err := s.send(response{FuncCall: &funcCall{Func: handle, Args: args}}); err != nil {
			return 0, err
		}
		var req request
		if err := s.dec.Decode(&req); err != nil {
			return 0, err
		}
		if req.Reply == nil {
			return 0, errors.New("no reply from drivebench")
		}
		if req.Reply.Err != "" {
			return 0, errors.New(req.Reply.Err)
		}
		return req.Reply.Value, nil
	}
}

// serve runs one call.
func (s *workerServer) serve(c *callRequest) *callResult {
	rt := s.runtimes[c.Root]
	if rt == nil {
		rt = &Runtime{Root: c.Root, inWorker: true}
		s.runtimes[c.Root] = rt
	}
	rt.Limits = Limits{MaxSteps: c.MaxSteps, Timeout: c.Timeout}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if !c.Deadline.IsZero() {
		ctx, cancel = context.WithDeadline(ctx, c.Deadline)
		defer cancel()
	}
	for len(s.cancels) > 0 { // a request that came after the last call ended
		<-s.cancels
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-s.cancels:
			cancel()
		case <-done:
		}
	}()
	args := make([]any, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.decode(s.proxy)
	}
	var hookArgs map[string]any
	if c.HookArgs != nil {
		hookArgs, _ = c.HookArgs.decode(nil).(map[string]any)
	}
	res := &callResult{}
	arg := func() any {
		if len(args) == 0 {
			return nil
		}
		return args[0]
	}
	var err error
	switch c.Op {
	case opCall:
		var v any
		v, res.Prints, err = rt.Call(ctx, c.File, c.Function, args...)
		res.Value = encodeResult(v)
	case opHas:
		err = rt.HasFunction(c.File, c.Function)
	case opSignature:
		err = rt.CheckFunction(c.File, c.Function, c.Params, c.WithArgs)
	case opCheck:
		res.Verdicts, res.Prints, err = rt.Check(ctx, c.File, c.Function, arg())
	case opSteady:
		res.Steady, res.Prints, err = rt.SteadyState(ctx, c.File, c.Function, arg(), hookArgs)
	case opNext:
		var next map[string]any
		next, res.Prints, err = rt.NextPoint(ctx, c.File, c.Function, arg(), hookArgs)
		res.Value = encodeResult(next)
	case opParse:
		res.Metrics, res.Prints, err = rt.Parse(ctx, c.File, c.Function, c.Stdout, c.Stderr, c.ExitCode, hookArgs)
	case opSummary:
		res.Sections, res.Prints, err = rt.Summary(ctx, c.File, c.Function, arg(), hookArgs)
	case opTests:
		res.Tests, err = s.tests(ctx, rt, c)
	default:
		err = fmt.Errorf("unknown call %q", c.Op)
	}
	res.Err = toWireError(err)
	return res
}

func (s *workerServer) tests(ctx context.Context, rt *Runtime, c *callRequest) ([]wireTest, error) {
	var filter *regexp.Regexp
	if c.Filter != "" {
		var err error
		if filter, err = regexp.Compile(c.Filter); err != nil {
			return nil, err
		}
	}
	results, err := rt.RunTests(ctx, c.File, filter)
	tests := make([]wireTest, len(results))
	for i, r := range results {
		tests[i] = wireTest{File: r.File, Test: r.Test, Err: toWireError(r.Err), Prints: r.Prints, Duration: r.Duration}
	}
	return tests, err
}
