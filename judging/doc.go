// Package judging holds the pure functions that turn records into
// judgements:
//
//   - spec-sheet acceptance (Accept): each figure of a drive's spec
//     compared with the measured point whose conditions come closest, a
//     row per figure with the ways the conditions differ, and a verdict
//     per row;
//   - expectation verdicts (Expect): a point's expectations evaluated on
//     what they see of its result (Measured);
//   - the figures they read: both directions combined, the average of a
//     profile's rounds, steady-state records and the stop condition of a
//     rate curve.
//
// It exists apart from the scheduler so that what a verdict says depends
// on the records alone. Nothing here schedules, reads a drive or touches
// the results folder: the engine decides when a judgement is due, gathers
// the records it needs (the points an accept block may compare with, the
// final round of a steady-state search) and stores what comes back, and
// each judgement is tested on records built by hand.
package judging
