// Package judging holds the pure functions that turn records into
// judgements: what an expectation sees of a result (Measured), the
// combined figures of both directions, the average of a profile's rounds,
// steady-state records and the stop condition of a rate curve. None of
// them schedules, reads a drive or touches the results folder, so each is
// tested on records alone and the engine only decides when to call them.
//
// Acceptance against spec sheets and the expectation verdicts still live
// in engine (accept.go, expect.go), where they read the run's records
// through the scheduler; they are the next to move here.
package judging
