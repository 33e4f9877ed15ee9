// Package termview shows a running plan to the person who started it, as
// fio and k6 do: on a terminal, a block redrawn in place with a progress
// bar per running drive (drives run in parallel lanes), the step's and the
// plan's progress each labelled ("step 3/12 45%", "plan 22% ETA 04:10"),
// the last interval's IOPS, bandwidth and p99, and one line per kind of
// warning with its count; finished steps scroll above it, each with its
// latency; a closing table gives every step's headline at the end.
//
// Without a terminal (a pipe, a file, a CI log) nothing is redrawn: a line
// per step started and finished, and a heartbeat line per running step
// every Options.Heartbeat, timed from that step's own start, so a long
// step is not hours of silence and a short one no noise.
//
// Warnings are folded in both forms. A vdbench-style sweep can warn about
// the same host condition at hundreds of points; printed each time, the
// paragraphs bury the results. The view counts them per kind (the words
// are the report's flag words) and leaves each message to the report and
// the step's record, where it is kept in full.
//
// The view is a pure function of the events it observes, the clock and
// the width it is given, so it is golden-tested from recorded event
// sequences with an injected clock and width. Colour marks pass, fail and
// warnings only, and only when the caller allows it (a terminal, NO_COLOR
// unset, TERM not dumb: see ColorAllowed).
package termview
