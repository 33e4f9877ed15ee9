package judging

import (
	"fmt"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// ReplayCheck is the check of a replay's fidelity verdict: whether it
// issued exactly the trace's reads, writes and bytes.
const ReplayCheck = "replay fidelity"

// ReplayFidelity judges a trace replay that ran to its end: it passes
// when the replay completed exactly the I/Os and bytes the trace holds
// (its window and disk, times its loops) and fails otherwise, saying by
// how much. A step that replayed nothing, or did not complete (its status
// says why), gets no verdict.
func ReplayFidelity(rec *results.Record) []results.Verdict {
	if rec.Status != results.StatusOK || rec.Result == nil || rec.Result.Replay == nil {
		return nil
	}
	st := rec.Result.Replay
	v := results.Verdict{Check: ReplayCheck, Drive: rec.Drive, Subject: results.StepWithin(rec.Name, rec.Drive),
		Status: results.VerdictPass, Code: results.CodeHolds, Message: ReplayFidelityMessage(st.TraceIOs, st.TraceBytes, st.IssuedIOs, st.IssuedBytes)}
	if st.IssuedIOs != st.TraceIOs || st.IssuedBytes != st.TraceBytes {
		v.Status, v.Code = results.VerdictFail, results.CodeDoesNotHold
	}
	return []results.Verdict{v}
}

// ReplayFidelityMessage says what a replay issued against its trace: "the
// replay issued the trace's 2,000 I/Os and 8,192,000 bytes, exactly", or
// "the replay issued 1,990 I/Os and 8,151,040 bytes where the trace holds
// 2,000 and 8,192,000: 10 I/Os and 40,960 bytes were not replayed".
func ReplayFidelityMessage(traceIOs, traceBytes, issuedIOs, issuedBytes int64) string {
	if traceIOs == issuedIOs && traceBytes == issuedBytes {
		return fmt.Sprintf("the replay issued the trace's %s and %s bytes, exactly", IOCount(traceIOs), count(traceBytes))
	}
	diff := "not replayed"
	if issuedIOs > traceIOs || issuedBytes > traceBytes {
		diff = "more than the trace holds"
	}
	return fmt.Sprintf("the replay issued %s and %s bytes where the trace holds %s and %s: %s and %s bytes %s",
		IOCount(issuedIOs), count(issuedBytes), count(traceIOs), count(traceBytes), IOCount(abs(traceIOs-issuedIOs)), count(abs(traceBytes-issuedBytes)), diff)
}

func count(n int64) string { return format.Count(float64(n)) }

// IOCount writes a number of I/Os: "1 I/O", "2,000 I/Os".
func IOCount(n int64) string {
	if n == 1 {
		return "1 I/O"
	}
	return count(n) + " I/Os"
}

func abs(n int64) int64 { return max(n, -n) }
