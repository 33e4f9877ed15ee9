package reports

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// Step kinds, as the manifest spells the plan's node kinds.
const (
	kindPrecondition = "precondition"
	kindProfile      = "profile"
	kindAggregate    = "aggregate"
	kindReport       = "report"
	kindExec         = "exec"
	kindAdaptive     = "adaptive"
	kindAcceptance   = "acceptance"
)

// step is one step of the manifest with its record, nil when it has none.
type step struct {
	info results.StepInfo
	rec  *results.Record
}

// status is the record's status, StatusNotRun without a record and
// "unknown" when the record does not say.
func (s step) status() string {
	switch {
	case s.rec == nil:
		return StatusNotRun
	case s.rec.Status == "":
		return "unknown"
	}
	return s.rec.Status
}

// source is the name of the precondition, profile or check the step runs.
func (s step) source() string {
	if s.info.Source != "" {
		return s.info.Source
	}
	return s.info.Name
}

func (s step) is(kind string) bool { return s.info.Kind == kind }

// workload is the engine input the step's record holds, nil when it has
// none.
func (s step) workload() *workload.Workload {
	if s.rec == nil {
		return nil
	}
	return s.rec.Workload
}

// Build reduces a run's manifest and step records to a Summary. Records are
// matched to the manifest's steps by step ID, in the manifest's order;
// records of steps the manifest does not list (an earlier revision of the
// plan had them) are counted and listed apart, as EarlierSteps.
// When two records share an ID the later one in recs wins. The report step
// itself is left out, since the report is being made while it runs.
func Build(m *results.Manifest, recs []*results.Record) *Summary {
	if m == nil {
		m = &results.Manifest{}
	}
	steps, unlisted := joinSteps(m.Steps, recs)
	rev := planRevisions(m.PlanHash, steps, unlisted)
	s := &Summary{
		Schema:           SchemaVersion,
		Plan:             Plan{Name: m.Plan, File: m.PlanFile, Hash: m.PlanHash},
		EarlierRevisions: rev.list(),
		EarlierSteps:     buildEarlierSteps(unlisted, rev),
		GeneratedAt:      generatedAt(m.Created, steps),
		Version:          m.Version,
		Testbed:          buildTestbed(m.Testbed),
		Drives:           buildDrives(m.Drives),
		Methodology: Methodology{
			Preconditions: buildMethods(m.Preconditions),
			Profiles:      buildMethods(m.Profiles),
			Checks:        buildMethods(m.Checks),
		},
		Units:             string(unitOf(m.Units)),
		Results:           buildResults(steps, rev, profileHeadlines(m.Profiles), unitOf(m.Units)),
		Applications:      buildApplications(steps, rev),
		Dataloaders:       buildDataloaders(steps, rev),
		FileSets:          buildFileSets(steps),
		Checkpoints:       buildCheckpoints(steps),
		Comparables:       []Comparable{},
		Preconditioning:   buildPreconditioning(steps, rev),
		SteadyState:       buildSteadyState(steps, rev, unitOf(m.Units)),
		Acceptance:        buildAcceptance(steps, unitOf(m.Units)),
		Health:            []DriveHealth{},
		Checks:            buildChecks(steps, unitOf(m.Units)),
		Problems:          buildProblems(steps),
		Skipped:           buildSkipped(steps),
		Runs:              []RunSession{},
		UnreadableRecords: []UnreadableRecord{},
		Notes:             []string{},
	}
	s.Acceptance = append(s.Acceptance, unjudgedRows(s.Drives, s.Acceptance, steps)...)
	annotateResults(s.Results, steps, m.Percentiles)
	s.Grids = buildGrids(s.Results)
	setDriveTargets(s.Drives, steps)
	setRegions(s.Methodology.Preconditions, steps, kindPrecondition)
	setRegions(s.Methodology.Profiles, steps, kindProfile)
	s.Counts = Counts{Steps: countSteps(steps, len(unlisted)), Checks: countVerdicts(s.Checks)}
	s.arrange()
	return s
}

// profileHeadlines are the headlines the plan gave its profiles
// (headline = "bw"), by profile.
func profileHeadlines(methods []results.Method) map[string]string {
	out := map[string]string{}
	for _, m := range methods {
		for _, kv := range m.Params {
			if kv.Key == "headline" {
				out[m.Name] = kv.Value
			}
		}
	}
	return out
}

// setRegions sets each method's region from the workload of its first
// step of the given kind that recorded one.
func setRegions(methods []Method, steps []step, kind string) {
	for i := range methods {
		for _, s := range steps {
			if w := s.workload(); s.is(kind) && s.source() == methods[i].Name && w != nil {
				methods[i].Region = regionText(w)
				break
			}
		}
	}
}

// regionText describes the part of the drive a workload covers: "whole
// drive", "first 25% of capacity", "64GiB from offset 1GiB", "a set of
// 8 files in a folder of the drive".
func regionText(w *workload.Workload) string {
	if w.IsFileSet() {
		return "a set of " + format.Counted(w.Files, "file") + " in a folder of the drive"
	}
	from := ""
	if w.Offset > 0 {
		from = " from offset " + format.BlockSize(w.Offset)
	}
	switch {
	case w.Size > 0 && from == "":
		return "first " + format.BlockSize(w.Size)
	case w.Size > 0:
		return format.BlockSize(w.Size) + from
	case w.SizePct > 0 && w.SizePct < 100 && from == "":
		return "first " + format.Plain(w.SizePct) + "% of capacity"
	case w.SizePct > 0 && w.SizePct < 100:
		return format.Plain(w.SizePct) + "% of capacity" + from
	case from != "":
		return "from offset " + format.BlockSize(w.Offset) + " to the end"
	}
	return "whole drive"
}

// joinSteps pairs each listed step (but the report step) with its record
// and returns the records of unlisted steps, in the order of recs. The points of an adaptive
// search are steps the manifest cannot list, since the search chose them
// as it ran: they follow their search, in the order it measured them.
func joinSteps(infos []results.StepInfo, recs []*results.Record) ([]step, []*results.Record) {
	byID := map[string]*results.Record{}
	for _, r := range recs {
		if r != nil {
			byID[r.StepID] = r
		}
	}
	listed := map[string]bool{}
	for _, info := range infos {
		listed[info.ID] = true
	}
	var steps []step
	for _, info := range infos {
		if info.Kind == kindReport {
			continue
		}
		steps = append(steps, step{info: info, rec: byID[info.ID]})
		for _, p := range searchPoints(info.ID, byID, listed) {
			listed[p.info.ID] = true
			steps = append(steps, p)
		}
	}
	var unlisted []*results.Record
	for _, r := range recs {
		if r != nil && !listed[r.StepID] && byID[r.StepID] == r {
			listed[r.StepID] = true
			unlisted = append(unlisted, r)
		}
	}
	return steps, unlisted
}

// searchPoints are the points of the adaptive search id: those its record
// lists, in its order, then any other record that names the search as its
// parent (a search stopped before it wrote its record), by start time.
func searchPoints(id string, byID map[string]*results.Record, listed map[string]bool) []step {
	var out []step
	seen := map[string]bool{}
	add := func(r *results.Record) {
		if !listed[r.StepID] && !seen[r.StepID] {
			seen[r.StepID] = true
			out = append(out, step{info: pointInfo(r), rec: r})
		}
	}
	if search := byID[id]; search != nil {
		for _, pid := range search.Points {
			if r := byID[pid]; r != nil {
				add(r)
			}
		}
	}
	var orphans []*results.Record
	for _, r := range byID {
		if r.Parent == id && !seen[r.StepID] {
			orphans = append(orphans, r)
		}
	}
	slices.SortFunc(orphans, func(a, b *results.Record) int {
		return cmp.Or(a.Started.Compare(b.Started), cmp.Compare(a.StepID, b.StepID))
	})
	for _, r := range orphans {
		add(r)
	}
	return out
}

// pointInfo describes a point of an adaptive search as the manifest would.
func pointInfo(r *results.Record) results.StepInfo {
	return results.StepInfo{
		ID: r.StepID, Kind: cmp.Or(r.Kind, kindProfile), Name: r.Name, Drive: r.Drive,
		Source: r.Source, Pass: r.Pass, Point: r.Point,
	}
}

// generatedAt is the latest finish time of the steps, or created when no
// step has finished, in UTC.
func generatedAt(created time.Time, steps []step) time.Time {
	latest := created
	finished := false
	for _, s := range steps {
		if s.rec == nil || s.rec.Finished.IsZero() {
			continue
		}
		if !finished || s.rec.Finished.After(latest) {
			latest, finished = s.rec.Finished, true
		}
	}
	return latest.UTC()
}

func buildTestbed(t results.Testbed) Testbed {
	return Testbed{
		Name:        t.Name,
		Description: t.Description,
		Declared:    sortedFacts(t.Declared),
		Detected:    sortedFacts(t.Detected),
	}
}

// sortedFacts lists a map's entries by name; never nil.
func sortedFacts(m map[string]string) []Fact {
	facts := []Fact{}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		facts = append(facts, Fact{Name: name, Value: m[name]})
	}
	return facts
}

func buildDrives(drives []results.Drive) []Drive {
	out := []Drive{}
	for _, d := range drives {
		out = append(out, Drive{
			Name:      d.Name,
			Path:      d.Path,
			Scratch:   d.Scratch,
			SizeBytes: d.Size,
			Writable:  d.Writable,
			Facts:     sortedFacts(d.Facts),
			Identity:  buildIdentity(d.Identity()),
			Spec:      buildSpec(d.Spec),
			SpecSheet: d.SpecSheet,
		})
	}
	return out
}

func buildIdentity(id results.Identity) DriveIdentity {
	return DriveIdentity{Known: id.Known(), Detected: id.Detected, Declared: id.Declared, DeclaredBy: id.DeclaredBy, Mismatches: id.Mismatches()}
}

func buildSpec(entries []results.SpecEntry) []SpecEntry {
	out := []SpecEntry{}
	for _, e := range entries {
		values := maps.Clone(e.Values)
		if values == nil {
			values = map[string]float64{}
		}
		e.Values = values
		out = append(out, e)
	}
	return out
}

func buildMethods(methods []results.Method) []Method {
	out := []Method{}
	for _, m := range methods {
		method := Method{
			Name:   m.Name,
			Drives: append([]string{}, m.Drives...),
			Params: []KV{},
			Sweep:  []SweepDim{},
		}
		for _, kv := range m.Params {
			method.Params = append(method.Params, KV{Key: kv.Key, Value: kv.Value})
		}
		for _, dim := range m.Sweep {
			method.Sweep = append(method.Sweep, SweepDim{Param: dim.Param, Values: append([]string{}, dim.Values...)})
		}
		out = append(out, method)
	}
	return out
}

func buildPreconditioning(steps []step, rev *revisions) []PreconditionPass {
	out := []PreconditionPass{}
	for _, s := range steps {
		if !s.is(kindPrecondition) {
			continue
		}
		pass := PreconditionPass{
			StepID:       s.info.ID,
			Precondition: s.source(),
			Drive:        s.info.Drive,
			Pass:         s.info.Pass,
			Status:       s.status(),
			PlanHash:     rev.earlier(s.rec),
		}
		if s.rec != nil {
			pass.Error = s.rec.Error
			pass.DurationNs = duration(s.rec)
			pass.Warnings = s.rec.Warnings
			if w := s.rec.Result; w != nil && w.Write != nil {
				pass.BytesWritten = w.Write.Bytes
				pass.BWBytes = finite(w.Write.BW)
			}
		}
		out = append(out, pass)
	}
	return out
}

// duration is the measured phase of the step's run, or the step's wall
// time when the run recorded none.
func duration(r *results.Record) int64 {
	if r.Result != nil && r.Result.RuntimeNs > 0 {
		return r.Result.RuntimeNs
	}
	return wallTime(r)
}

// wallTime is how long a step took from start to finish; 0 when the
// record does not say.
func wallTime(r *results.Record) int64 {
	if r.Started.IsZero() || r.Finished.Before(r.Started) {
		return 0
	}
	return int64(r.Finished.Sub(r.Started))
}

// buildChecks gathers the verdicts of every step, in step order, the
// bandwidths of acceptance verdicts in the report's unit u.
func buildChecks(steps []step, u bwUnit) []CheckVerdict {
	out := []CheckVerdict{}
	for _, s := range steps {
		if s.rec == nil {
			continue
		}
		for _, v := range s.rec.Verdicts {
			out = append(out, CheckVerdict{
				StepID:     s.info.ID,
				Check:      cmp.Or(v.Check, s.source()),
				Drive:      cmp.Or(v.Drive, s.info.Drive),
				Status:     v.Status,
				Code:       v.Code,
				Message:    verdictMessage(v, u),
				Subject:    v.Subject,
				Where:      v.Where,
				DurationNs: wallTime(s.rec),
			})
		}
	}
	return out
}

// buildProblems lists the steps that failed, were interrupted or carry a
// status this version does not know.
func buildProblems(steps []step) []Problem {
	out := []Problem{}
	for _, s := range steps {
		switch s.status() {
		case results.StatusOK, results.StatusSkipped, StatusNotRun:
			continue
		}
		out = append(out, Problem{
			StepID:     s.info.ID,
			Name:       cmp.Or(s.info.Name, s.rec.Name),
			Kind:       s.info.Kind,
			Drive:      s.info.Drive,
			Status:     s.status(),
			Error:      s.rec.Error,
			DurationNs: wallTime(s.rec),
			Output:     outputTails(s.rec.Command),
		})
	}
	return out
}

// buildSkipped counts the skipped steps by drive, source and reason, in
// the order they first appear.
func buildSkipped(steps []step) []SkipGroup {
	out := []SkipGroup{}
	index := map[SkipGroup]int{}
	for _, s := range steps {
		if s.status() != results.StatusSkipped {
			continue
		}
		key := SkipGroup{Drive: s.info.Drive, Profile: s.source(), Reason: s.rec.Skipped}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, key)
		}
		out[i].Steps++
	}
	return out
}

func countSteps(steps []step, unlisted int) StepCounts {
	c := StepCounts{Total: len(steps), Unlisted: unlisted}
	for _, s := range steps {
		switch s.status() {
		case results.StatusOK:
			c.OK++
		case results.StatusFailed:
			c.Failed++
		case results.StatusInterrupted:
			c.Interrupted++
		case results.StatusSkipped:
			c.Skipped++
		case StatusNotRun:
			c.NotRun++
		default:
			c.Other++
		}
	}
	return c
}

func countVerdicts(verdicts []CheckVerdict) VerdictCounts {
	var c VerdictCounts
	for _, v := range verdicts {
		switch v.Status {
		case results.VerdictPass:
			c.Pass++
		case results.VerdictFail:
			c.Fail++
		case results.VerdictWarn:
			c.Warn++
		case results.VerdictError:
			c.Error++
		default:
			c.Other++
		}
	}
	return c
}
