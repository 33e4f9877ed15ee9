// Package engine executes a plan's Graph: it resolves each drive to a
// target it may safely use and locks it for the run (targetlock.go), so
// that no other drivebench process writes or measures it meanwhile, runs
// every step with its driver (or, for an exec step, the command it
// names), has the results judged once the records a judgement needs are
// there (expectations, the Starlark checks and steady-state rules,
// spec-sheet acceptance; the pure judgements live in package judging),
// lets adaptive hooks pick the points of a sweep, and stores one record
// per step in the results folder before moving on, so that whatever
// happens later, what was measured is kept.
//
// What every step shares (resuming, the drive's state, judging, the
// record) is runNode's; what a kind of step does is a stepKind registered
// in stepKinds (stepkind.go), so that a new kind is its own file and one
// line there. Likewise the watchers of the host and the drive over each
// I/O step (temperature, page cache, host load, a held process) are
// hostWatchers (watch.go).
//
// The engine decides nothing about presentation: it reports progress as
// Events to an Observer and leaves rendering to the caller.
package engine
