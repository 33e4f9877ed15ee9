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
	// StepProgress reports how far a step without I/O samples (a purge)
	// has come.
	StepProgress
	// StepWarning says why a step's figures may not measure what they
	// seem to (Message).
	StepWarning
)

// Event reports progress to the caller, which decides how to show it.
type Event struct {
	Kind EventKind
	// Index is the node's position in the graph, of Total.
	Index, Total int
	Node         *plan.Node
	// Sample is the last interval of a running step (StepLive).
	Sample metrics.Sample
	// Progress is the finished fraction of a step (StepProgress), 0 to 1.
	Progress float64
	// Record is the finished or reused step's record.
	Record *results.Record
	// Message is a warning's text (StepWarning).
	Message string
	// WarningKind is a warning's kind (results.WarnHostCPU...), so a
	// view can fold warnings of one kind; empty for a kind the record
	// does not keep.
	WarningKind string
	// Elapsed is the time since the run started.
	Elapsed time.Duration
}
