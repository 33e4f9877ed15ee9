package reports

import (
	"slices"
	"strings"

	"github.com/drivebench/drivebench/results"
)

// A row the run warned about (reads of space never written, a file in
// memory, a busy or held host, the page cache) is flagged wherever its
// figures are quoted: the highlight's sentences, the ranking, the
// Conclusion and the grid carry a short word for each warning beside the
// figure, so a headline never reads cleaner than its row.

// flagWords are the words of each warning kind, in the order flags are
// written.
var flagWords = []struct{ kind, words string }{
	{results.WarnUnwritten, "read unwritten space"},
	{results.WarnMemoryFS, "memory speed"},
	{results.WarnPageCache, "page cache"},
	{results.WarnDriveState, "drive state unknown"},
	{warnOtherTarget, "another target"},
	{results.WarnHostCPU, "host-bound"},
	{results.WarnHostStall, "host stalls"},
	{results.WarnRateShort, "missed its rate"},
	{results.WarnRateAboveMax, "above the maximum"},
	{results.WarnNoiseUnknown, "noise unknown"},
	{results.WarnNoPercentiles, "percentiles not merged"},
}

// flagRows sets each row's flags from the warnings the table lists for
// its point, in flagWords order, a kind flagWords does not know last.
func flagRows(t *ProfileResult) {
	curve := shapeOf(t) == shapeRateCurve
	for i := range t.Rows {
		point := pointText(t.Rows[i], curve)
		var kinds []string
		for _, w := range t.Warnings {
			if w.Point == point {
				kinds = addFlags(kinds, w.Kind)
			}
		}
		t.Rows[i].Flags = kinds
	}
}

// addFlags adds kinds to flags, each once, in flagWords order.
func addFlags(flags []string, kinds ...string) []string {
	for _, k := range kinds {
		if !slices.Contains(flags, k) {
			flags = append(flags, k)
		}
	}
	slices.SortStableFunc(flags, func(a, b string) int { return flagRank(a) - flagRank(b) })
	return flags
}

// flagRank is a kind's place in flagWords, past its end when unknown.
func flagRank(kind string) int {
	if i := slices.IndexFunc(flagWords, func(f struct{ kind, words string }) bool { return f.kind == kind }); i >= 0 {
		return i
	}
	return len(flagWords)
}

// WarningWords are the words a reader sees for a warning kind beside a
// figure ("host-bound" for results.WarnHostCPU); the kind itself when it
// has none. The run's terminal view folds its warnings under them.
func WarningWords(kind string) string {
	if r := flagRank(kind); r < len(flagWords) {
		return flagWords[r].words
	}
	return kind
}

// flagText writes flags as a reader sees them beside a figure: "⚠ read
// unwritten space, host-bound"; "" for none.
func flagText(flags []string) string {
	if len(flags) == 0 {
		return ""
	}
	words := make([]string, len(flags))
	for i, k := range flags {
		words[i] = WarningWords(k)
	}
	return "⚠ " + strings.Join(words, ", ")
}

// flagNote is flagText in parentheses after a figure: " (⚠ host-bound)".
func flagNote(flags []string) string {
	if text := flagText(flags); text != "" {
		return " (" + text + ")"
	}
	return ""
}

// stepFlags are the flags of this run's row that shows step id.
func (s *Summary) stepFlags(id string) []string {
	for _, t := range s.Results {
		for _, r := range t.Rows {
			if id != "" && r.StepID == id {
				return r.Flags
			}
		}
	}
	return nil
}
