package engine

import (
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// EventKind says what happened.
type EventKind int

// The kinds of event, in the order a step produces them.
const (
	StepStarted EventKind = iota
	StepLive
	StepFinished
	StepReused
)

// Event reports progress to the caller, which decides how to show it.
type Event struct {
	Kind EventKind
	// Index is the node's position in the graph, of Total.
	Index, Total int
	Node         *plan.Node
	// Sample is the last interval of a running step (StepLive).
	Sample metrics.Sample
	// Record is the finished or reused step's record.
	Record *results.Record
	// Elapsed is the time since the run started.
	Elapsed time.Duration
}
