package reports

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/results"
)

// revisions tells the records of the current plan revision from those an
// earlier revision produced: a run resumed after its plan changed reuses
// the records of the steps the change left alone, and they keep the hash
// of the revision that made them.
type revisions struct {
	current string
	// order lists the earlier hashes as the steps first use them.
	order []string
	steps map[string]int
}

// planRevisions collects the earlier revisions behind the steps' records
// and the records of steps the plan no longer has. Records that name no
// revision are taken as the current one's.
func planRevisions(current string, steps []step, unlisted []*results.Record) *revisions {
	rev := &revisions{current: current, steps: map[string]int{}}
	add := func(rec *results.Record) {
		if h := rev.earlier(rec); h != "" {
			if rev.steps[h] == 0 {
				rev.order = append(rev.order, h)
			}
			rev.steps[h]++
		}
	}
	for _, s := range steps {
		add(s.rec)
	}
	for _, rec := range unlisted {
		add(rec)
	}
	return rev
}

// buildEarlierSteps describes the records of steps the plan no longer
// has, each with the earlier revision that made it.
func buildEarlierSteps(unlisted []*results.Record, rev *revisions) []EarlierStep {
	out := []EarlierStep{}
	unlisted = slices.Clone(unlisted)
	slices.SortStableFunc(unlisted, func(a, b *results.Record) int {
		return cmp.Or(a.Started.Compare(b.Started), cmp.Compare(a.StepID, b.StepID))
	})
	for _, r := range unlisted {
		e := EarlierStep{
			StepID: r.StepID, Name: r.Name, Kind: r.Kind, Drive: r.Drive, Source: r.Source,
			Point: r.Point.String(), Status: cmp.Or(r.Status, "unknown"), Error: r.Error,
			PlanHash: rev.earlier(r), Finished: r.Finished.UTC(),
		}
		if res := r.Result; res != nil {
			e.Total = totalFigures(res.Read, res.Write)
		}
		out = append(out, e)
	}
	return out
}

// earlier is the plan hash of the record when an earlier revision made
// it, and "" otherwise.
func (rev *revisions) earlier(rec *results.Record) string {
	if rec == nil || rec.PlanHash == "" || rev.current == "" || rec.PlanHash == rev.current {
		return ""
	}
	return rec.PlanHash
}

// list describes the earlier revisions, each with its footnote marker.
func (rev *revisions) list() []PlanRevision {
	out := []PlanRevision{}
	for i, h := range rev.order {
		out = append(out, PlanRevision{Hash: h, Marker: superscript(i + 1), Steps: rev.steps[h]})
	}
	return out
}

// superscript writes n in superscript digits: 12 -> "¹²".
func superscript(n int) string {
	digits := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var b strings.Builder
	for _, d := range strconv.Itoa(n) {
		b.WriteRune(digits[d-'0'])
	}
	return b.String()
}

// shortHashLen is how much of a plan hash the report prints beside a
// marker: enough to find the revision in a plan's history.
const shortHashLen = 8

// shortHash is the start of a plan hash.
func shortHash(h string) string {
	if len(h) > shortHashLen {
		return h[:shortHashLen]
	}
	return h
}

// revisionMarker is the marker of an earlier revision's results, or ""
// for the current revision.
func (s *Summary) revisionMarker(hash string) string {
	for _, r := range s.EarlierRevisions {
		if hash != "" && r.Hash == hash {
			return r.Marker
		}
	}
	return ""
}
