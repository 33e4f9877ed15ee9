package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/internal/ctxtime"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/nvme"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
	"github.com/drivebench/drivebench/workload"
)

// Options configure a run.
type Options struct {
	// Dir is the results folder; it is created if needed. A folder that
	// already holds records of the same steps resumes: complete steps are
	// not run again.
	Dir string
	// Version is drivebench's version, stored in the manifest.
	Version string
	// VarArgs are the -var values the plan was loaded with, stored so the
	// run can be resumed with the same plan.
	VarArgs  map[string]string
	VarFiles []string
	// VarEnv holds the plan variables the environment set, by name
	// (DRIVEBENCH_VAR_<name>), stored likewise.
	VarEnv map[string]string
	// Observe receives progress events; it may be nil.
	Observe func(Event)
	// HookLimits bound every Starlark hook; the manifest keeps them, so
	// that hooks called again on the folder get the same.
	HookLimits script.Limits
	// Drivers maps engine names to drivers, adding to or replacing the
	// built-in "native" and "fio".
	Drivers map[string]driver.Driver
}

// Outcome is what a run did.
type Outcome struct {
	Dir      string
	Records  []*results.Record
	Verdicts []results.Verdict
	// Failed counts steps that failed to run.
	Failed int
	// Kept lists the scratch files an unfinished run leaves for -resume.
	Kept []string
}

// Run executes every node of g in order. A step that fails is recorded as
// failed and the run goes on with the next; the error return is for
// problems that stop the whole run (an unusable drive, a results folder
// that cannot be written, a cancelled context).
func Run(ctx context.Context, p *plan.Plan, g *plan.Graph, opt Options) (_ *Outcome, err error) {
	r := &runner{plan: p, graph: g, opt: opt, targets: map[string]*target{}, out: &Outcome{Dir: opt.Dir}, profiles: map[string]*plan.Profile{}}
	for _, pr := range p.Profiles {
		r.profiles[pr.Name] = pr
	}
	drivers := defaultDrivers(p)
	for name, d := range opt.Drivers {
		drivers[name] = d
	}
	r.opt.Drivers = drivers
	r.hooks = map[string]*script.Runtime{}
	if r.opt.HookLimits.Memory == 0 {
		r.opt.HookLimits.Memory = p.HookMemory
	}
	defer r.closeHooks()
	if err := checkStepKinds(g); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create results folder: %w", err)
	}
	if err := r.checkRecords(); err != nil {
		return nil, err
	}
	if r.locks, err = newTargetLocks(opt.Dir); err != nil {
		return nil, err
	}
	defer r.unlockTargets()
	if err := r.resolveDrives(); err != nil {
		r.removeScratch()
		return nil, err
	}
	if err := r.checkDirectFit(); err != nil {
		r.removeScratch()
		return nil, err
	}
	if err := r.makeWorkDirs(); err != nil {
		return nil, err
	}
	if err := r.switchWriteCaches(); err != nil {
		r.removeScratch()
		return nil, err
	}
	defer func() { err = errors.Join(err, r.restoreOnExit()) }()
	r.snapshotBefore()
	folder, err := results.Create(opt.Dir, buildManifest(p, g, r.targets, opt))
	if err != nil {
		r.removeScratch()
		return nil, err
	}
	r.folder = folder
	if r.journal, err = folder.Journal(); err != nil {
		return nil, fmt.Errorf("read the journal: %w", err)
	}
	if err := r.startRun(); err != nil {
		return r.out, r.saveError(err)
	}
	defer func() { err = errors.Join(err, r.endRun(ctx, err)) }()
	if err := r.saveHealth(); err != nil {
		return r.out, err
	}
	if err := r.loadDriveStates(); err != nil {
		return r.out, err
	}
	err = r.runNodes(ctx)
	r.settleScratch(err)
	return r.out, err
}

// settleScratch removes the scratch files of a completed run. An
// unfinished one (interrupted, stopped, or with steps that failed) keeps
// them, so that -resume finds the drive in the state its steps left it.
func (r *runner) settleScratch(err error) {
	if err == nil && r.out.Failed == 0 {
		r.removeScratch()
		return
	}
	for _, d := range r.plan.Drives {
		t := r.targets[d.Name]
		switch {
		case t == nil:
		case usesFileSets(r.graph, d.Name) && t.setRoot() != "":
			r.out.Kept = append(r.out.Kept, t.setRoot())
			if t.scratch && doesIO(r.graph, d.Name) {
				r.out.Kept = append(r.out.Kept, t.io.Path)
			}
		case t.scratch && doesIO(r.graph, d.Name):
			r.out.Kept = append(r.out.Kept, t.io.Path)
		default:
			r.removeScratchOf(d.Name)
		}
	}
}

type runner struct {
	plan    *plan.Plan
	graph   *plan.Graph
	opt     Options
	folder  *results.Folder
	targets map[string]*target
	// locks holds the run's locks on its drives' targets.
	locks *targetLocks
	// hooks holds one Starlark runtime per folder that check scripts live
	// in: the plan's, and each module's.
	hooks map[string]*script.Runtime
	// journal is the status of each step the folder's journal held when
	// the run started.
	journal map[string]string
	// mu guards records, stopped, out and the observer, which lanes
	// running in parallel share.
	mu      sync.Mutex
	records map[string]*results.Record
	// stopped holds, by group, why a rate curve or a steady-state profile
	// ended before its last node.
	stopped map[string]groupStop
	// rounds holds, by group, the tracked figure of each steady-state
	// round so far.
	rounds map[string][]float64
	// roundRecs holds, by group, the tracked record of each steady-state
	// round so far, for a steady_state hook.
	roundRecs map[string][]*results.Record
	// health holds the NVMe snapshots of each NVMe drive.
	health map[string]*driveHealth
	// caches holds the volatile write caches switched for the run and not
	// yet restored, by drive.
	caches map[string]*nvme.WriteCacheSwitch
	// states holds each drive's state as the run goes; redo, by drive,
	// why the preconditions of its remaining steps must run again.
	states map[string]*results.DriveState
	redo   map[string]string
	// profiles holds the plan's profiles and exec steps by name.
	profiles map[string]*plan.Profile
	out      *Outcome
	start    time.Time
	// ended is set once the run's end is in the journal; runNumber is
	// the run's place among the folder's runs, from 1.
	ended     bool
	runNumber int
	// setAside holds, by step ID, what became of a damaged record the
	// run found and moved aside.
	setAside map[string]results.SetAsideRecord
}

func (r *runner) resolveDrives() error {
	var errs []error
	for _, d := range r.plan.Drives {
		t, err := resolveTarget(d, r.opt.Dir, writes(r.graph, d.Name), doesIO(r.graph, d.Name), r.locks)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		t.identify()
		r.targets[d.Name] = t
	}
	return errors.Join(errs...)
}

// removeScratch removes the files and folders the run created for
// scratch and directory drives: a directory drive's folder only when the
// run created it and nothing else is left in it.
func (r *runner) removeScratch() {
	for name := range r.targets {
		r.removeScratchOf(name)
	}
}

func (r *runner) removeScratchOf(name string) {
	t := r.targets[name]
	if t.scratch {
		os.Remove(t.io.Path)
	}
	if root := t.setRoot(); root != "" && usesFileSets(r.graph, name) {
		os.RemoveAll(root)
	}
	if t.removeWorkDir {
		os.RemoveAll(t.workDir)
	}
	if t.madeDir {
		// The folder of a directory drive that the run created, once
		// empty: what anyone else put in it keeps it.
		os.Remove(t.workDir)
	}
}

// runNodes runs the graph. Each drive's steps run in plan order; the
// drives run one after another (a quiet host) unless the testbed says
// parallel = true. Steps without a drive (the report) run last.
func (r *runner) runNodes(ctx context.Context) error {
	r.start = time.Now()
	r.records = map[string]*results.Record{}
	r.stopped = map[string]groupStop{}
	lanes, tail := r.lanes()
	if r.graph.Parallel && len(lanes) > 1 {
		if err := r.runParallel(ctx, lanes); err != nil {
			return err
		}
	} else {
		for _, lane := range lanes {
			if err := r.runLane(ctx, lane); err != nil {
				return err
			}
		}
	}
	if err := r.restoreWriteCaches(); err != nil {
		return err
	}
	if err := r.snapshotAfter(); err != nil {
		return err
	}
	// Every step ran: the run is complete before its reports, which the
	// folder can make again at any time.
	if err := r.endRun(ctx, nil); err != nil {
		return err
	}
	return r.runLane(ctx, tail)
}

// lanes splits the graph's node indexes by drive, in order of appearance.
func (r *runner) lanes() (lanes [][]int, tail []int) {
	byDrive := map[string]int{}
	for i, n := range r.graph.Nodes {
		if n.Drive == "" {
			tail = append(tail, i)
			continue
		}
		k, ok := byDrive[n.Drive]
		if !ok {
			k = len(lanes)
			byDrive[n.Drive] = k
			lanes = append(lanes, nil)
		}
		lanes[k] = append(lanes[k], i)
	}
	return lanes, tail
}

// runParallel runs the lanes at once; the first error that stops a lane
// (a results folder that cannot be written, cancellation) stops them all.
func (r *runner) runParallel(ctx context.Context, lanes [][]int) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for _, lane := range lanes {
		wg.Go(func() {
			if err := r.runLane(ctx, lane); err != nil {
				cancel(err)
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// runLane runs nodes one after another.
func (r *runner) runLane(ctx context.Context, lane []int) error {
	for _, i := range lane {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := r.graph.Nodes[i]
		rec, err := r.runNode(ctx, i, n)
		if rec != nil {
			r.keep(n, rec)
		}
		if err != nil {
			return err
		}
		if rec != nil && rec.Status == results.StatusFailed && r.plan.OnError == "abort" {
			return &AbortError{Step: rec.Name, Err: rec.Error}
		}
	}
	return nil
}

// keep adds a finished step's record to the outcome.
func (r *runner) keep(n *plan.Node, rec *results.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records[n.ID] = rec
	r.out.Records = append(r.out.Records, rec)
	r.out.Verdicts = append(r.out.Verdicts, rec.Verdicts...)
	if rec.Status != results.StatusOK && rec.Status != results.StatusSkipped {
		r.out.Failed++
	}
}

// record returns the record of a step finished in this run, or nil.
func (r *runner) record(id string) *results.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.records[id]
}

// skipReason says why n is not run, or "": its group (a rate curve, the
// rounds of a steady-state profile) has ended before it.
func (r *runner) skipReason(n *plan.Node) string {
	if n.Group == "" {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if stop, ok := r.stopped[n.Group]; ok && n.Round > stop.afterRound {
		return stop.reason
	}
	return ""
}

// endGroup skips the group's nodes of rounds after afterRound; -1 skips
// every node still to come.
func (r *runner) endGroup(group, reason string, afterRound int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, done := r.stopped[group]; !done {
		r.stopped[group] = groupStop{reason: reason, afterRound: afterRound}
	}
}

// groupStop records why and from where a group's remaining nodes are
// skipped.
type groupStop struct {
	reason     string
	afterRound int
}

// runNode runs one node, or reuses its complete record from an earlier run
// of the same plan in the same folder.
func (r *runner) runNode(ctx context.Context, i int, n *plan.Node) (*results.Record, error) {
	ev := Event{Kind: StepStarted, Index: i, Total: len(r.graph.Nodes), Node: n, Elapsed: time.Since(r.start)}
	if n.Kind == plan.KindReport {
		// The caller writes the reports, and runs the summary hook
		// (Summarize), once Run has returned.
		r.emit(ev)
		return nil, nil
	}
	rerun := r.rerunReason(n)
	if old, err := r.folder.ReadRecord(n.ID); err == nil && old.Status == results.StatusOK && reusable(n) && rerun == "" {
		return old, r.reuse(ctx, ev, n, old)
	}
	r.emit(ev)
	rec := r.newRecord(n)
	if err := r.beginStep(n, rec); err != nil {
		return nil, err
	}
	if aside, ok := r.setAside[n.ID]; ok {
		rec.Log = append(rec.Log, format.UpperFirst(setAsideText(aside))+"; the step ran again.")
		r.emit(Event{Kind: StepWarning, Index: i, Total: len(r.graph.Nodes), Node: n, Elapsed: r.elapsed(), Message: setAsideText(aside) + "; the step runs again"})
	}
	if rerun != "" {
		rec.DriveState.Rerun = rerun
		rec.Warnings = append(rec.Warnings, results.Warning{Kind: results.WarnDriveState,
			Message: "Run again on resume: the drive's state was lost (" + rerun + ")."})
		r.emit(Event{Kind: StepWarning, Index: i, Total: len(r.graph.Nodes), Node: n, Elapsed: r.elapsed(),
			Message: fmt.Sprintf("drive %s: %s; running %s again", n.Drive, rerun, n.Name), WarningKind: results.WarnDriveState})
	}
	skip := r.skipReason(n)
	var unheld error
	if skip == "" {
		unheld = r.holdDevice(n)
	}
	switch {
	case skip != "":
		rec.Status, rec.Error, rec.Skipped = results.StatusSkipped, "not run: "+skip, skip
	case unheld != nil:
		rec.Status, rec.Error = results.StatusFailed, unheld.Error()
	default:
		if err := stepKinds[n.Kind].run(ctx, r, i, n, rec); err != nil {
			return nil, err
		}
	}
	if err := r.endStep(n, rec); err != nil {
		return nil, err
	}
	for _, w := range rec.Warnings {
		if w.Kind != results.WarnDriveState || rerun == "" {
			r.emit(Event{Kind: StepWarning, Index: i, Total: len(r.graph.Nodes), Node: n, Elapsed: r.elapsed(), Message: w.Message, WarningKind: w.Kind})
		}
	}
	r.judgeGroup(ctx, n, rec)
	if err := r.judgeExpect(n, rec, false); err != nil {
		return nil, err
	}
	if err := r.finish(i, n, rec); err != nil {
		return nil, err
	}
	return rec, ctx.Err()
}

// reusable reports whether a complete record of n from an earlier run in
// the same folder stands, as its kind says.
func reusable(n *plan.Node) bool {
	return stepKinds[n.Kind].reusable()
}

// reuse keeps a complete record from an earlier run: it is journaled if
// the journal missed it, its group and expectations are judged again,
// and an adaptive step's points are read back.
func (r *runner) reuse(ctx context.Context, ev Event, n *plan.Node, old *results.Record) error {
	if r.journal[n.ID] != old.Status {
		if err := r.folder.MarkDone(old); err != nil {
			return r.saveError(err)
		}
	}
	ev.Kind, ev.Record = StepReused, old
	r.emit(ev)
	if k, ok := stepKinds[n.Kind].(stepReuser); ok {
		if err := k.reused(r, ev.Index, n, old); err != nil {
			return err
		}
	}
	r.judgeGroup(ctx, n, old)
	return r.judgeExpect(n, old, true)
}

// finish writes a step's record and reports it.
func (r *runner) finish(i int, n *plan.Node, rec *results.Record) error {
	rec.Finished = time.Now()
	if err := r.folder.WriteRecord(rec); err != nil {
		return r.saveError(err)
	}
	r.emit(Event{Kind: StepFinished, Index: i, Total: len(r.graph.Nodes), Node: n, Record: rec, Elapsed: r.elapsed()})
	return nil
}

// elapsed is the time since the run started.
func (r *runner) elapsed() time.Duration { return time.Since(r.start) }

// saveError explains a record that could not be saved; the run stops, as
// measuring what cannot be kept is pointless.
func (r *runner) saveError(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return fmt.Errorf("the disk of the results folder is full (%w); the records written so far are intact: free some space and continue with drivebench run -resume %s", err, r.opt.Dir)
	}
	return err
}

func (r *runner) newRecord(n *plan.Node) *results.Record {
	rec := &results.Record{
		StepID: n.ID, Kind: string(n.Kind), Name: n.Name, Drive: n.Drive, Source: n.Source,
		Pass: n.Pass, PlanHash: r.plan.Hash, Started: time.Now(), Status: results.StatusOK, Run: r.runNumber,
	}
	rec.Point = slices.Clone(n.Point)
	if n.Workload != nil {
		rec.Engine = engineName(n.Workload)
		w := n.Workload.Clone()
		rec.Workload = &w
	}
	return rec
}

func engineName(w *workload.Workload) string {
	return cmp.Or(w.Engine, workload.DefaultEngine)
}

// workloadStep runs a precondition or profile node: its workload, with
// its engine's driver, after the profile's pause; a purge precondition
// erases the drive instead.
type workloadStep struct{}

func (workloadStep) run(ctx context.Context, r *runner, i int, n *plan.Node, rec *results.Record) error {
	if n.PurgeMethod != "" {
		r.runPurge(ctx, i, n, rec)
		return nil
	}
	if err := ctxtime.Sleep(ctx, n.Pause); err != nil {
		rec.Status, rec.Error = results.StatusInterrupted, "interrupted during the pause before the step: "+err.Error()
		return nil
	}
	if n.Pause > 0 {
		rec.Log = append(rec.Log, fmt.Sprintf("idle for %s before the step (the profile's pause)", workload.FormatDuration(n.Pause)))
	}
	r.checkHoles(n, rec)
	r.checkFileSystem(n, rec)
	r.runWorkload(ctx, i, n, rec)
	rec.Verdicts = append(rec.Verdicts, judging.ReplayFidelity(rec)...)
	return nil
}

func (workloadStep) reusable() bool { return true }

func (r *runner) runWorkload(ctx context.Context, i int, n *plan.Node, rec *results.Record) {
	driver, ok := r.stepDriver(n, rec.Engine)
	if !ok {
		rec.Status, rec.Error = results.StatusFailed, fmt.Sprintf("engine %q is not available in this build", rec.Engine)
		return
	}
	w := *n.Workload
	if w.Seed == 0 {
		w.Seed = seedFromID(n.ID)
	}
	if err := r.resolveRate(&w); err != nil {
		rec.Status, rec.Error = results.StatusFailed, err.Error()
		return
	}
	recorded := w.Clone()
	rec.Workload = &recorded
	live := func(s metrics.Sample) {
		r.emit(Event{Kind: StepLive, Index: i, Total: len(r.graph.Nodes), Node: n, Sample: s, Elapsed: time.Since(r.start)})
	}
	target := r.targets[n.Drive].io
	if w.IsFileSet() {
		var err error
		if target, err = r.targets[n.Drive].setTarget(); err != nil {
			rec.Status, rec.Error = results.StatusFailed, err.Error()
			return
		}
	}
	watched := &watchedStep{node: n, target: target, w: &w, rec: rec}
	finishWatches := startWatches(watched)
	res, err := driver.Run(ctx, watched.target, w, live)
	finishWatches(res)
	if res != nil && res.Latency == "" && rec.Engine == "native" {
		res.Latency = metrics.LatencyEngine
	}
	rec.Result = res
	rec.EndedBy = endedBy(&w, res)
	if warn := r.rateAboveMax(&w, res); warn != nil {
		rec.Warnings = append(rec.Warnings, *warn)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		rec.Status, rec.Error = results.StatusInterrupted, interruptReason(ctx)
	case err != nil:
		rec.Status, rec.Error = results.StatusFailed, err.Error()
	default:
		if gone := r.targets[n.Drive].gone(); gone != "" {
			rec.Status, rec.Error = results.StatusFailed, gone
		} else if watched.failure != "" {
			rec.Status, rec.Error = results.StatusFailed, watched.failure
		}
	}
}

// endedBy names the bound that ended a run bounded both by bytes and by
// time: the runtime when the measured phase lasted it (to within 1%, the
// engines' stopping granularity), io_size when it ended sooner. A run
// with one bound, or without a result, gives "".
func endedBy(w *workload.Workload, res *metrics.Result) string {
	if res == nil || w.Runtime <= 0 || (w.Bytes <= 0 && w.BytesPct <= 0) {
		return ""
	}
	if float64(res.RuntimeNs) >= 0.99*float64(w.Runtime) {
		return "runtime"
	}
	return "io_size"
}

// seedFromID derives a reproducible random seed from a step's content ID.
func seedFromID(id string) uint64 {
	var s uint64 = 1469598103934665603
	for i := 0; i < len(id); i++ {
		s = (s ^ uint64(id[i])) * 1099511628211
	}
	return s
}

func (r *runner) emit(e Event) {
	if r.opt.Observe != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.opt.Observe(e)
	}
}

// AbortError stops a run whose plan says on_error = "abort" after a step
// failed; the records written so far are kept.
type AbortError struct {
	Step string
	Err  string
}

func (e *AbortError) Error() string {
	return fmt.Sprintf("step %s failed (%s); the plan says on_error = \"abort\", so no further steps ran", e.Step, e.Err)
}

// interruptReason is a record's error when ctx stopped its step: what stopped
// the run ("interrupt signal received", "hangup signal received"), shown
// after the step's status "interrupted".
func interruptReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	if cause == nil || errors.Is(cause, context.Canceled) && cause.Error() == context.Canceled.Error() {
		return "the run was stopped before the step finished"
	}
	return cause.Error()
}
