package reporttruth

import (
	"strconv"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// checkpointKinds know the sentences on each checkpoint and on a file
// set that could not drop the page cache, recomputed from the records of
// the checkpoint's pass steps: a phase's seconds are its slowest job's,
// its bandwidths the slowest job's bytes over its seconds and every
// job's bytes over the slowest's seconds, averaged over the passes.
var checkpointKinds = []kind{
	{
		name: "checkpoint write", in: "Checkpoints",
		pattern: pattern(`(?P<name>.+?) on (?P<drive>.+?): {count:ranks} ranks wrote (?P<bytes>[\d,.]+ [kMGTP]?B) per pass in {num:sec} s \(the slowest rank, (?P<over>1 pass|mean of [\d,]+ passes)\), {bw:low} for the slowest rank and {bw:all} in all{flags}\.`),
		check:   checkCheckpointWrite,
	},
	{
		name: "checkpoint read-back", in: "Checkpoints",
		pattern: pattern(`(?P<name>.+?) on (?P<drive>.+?) read it back in {num:sec} s, {bw:low} for the slowest rank and {bw:all} in all{flags}\.`),
		check:   func(sc *scope, g groups) []string { return checkCheckpointPhase(sc, g, "read") },
	},
	{
		name: "checkpoint cache", in: "Checkpoints",
		pattern: pattern(`(?P<name>.+?) on (?P<drive>.+?): the page cache could not be dropped before {count:n} of its read-backs, as drop_caches needs root; only the checkpoint's own files were evicted from it, so those read-backs read them from the drive while other cached data, such as the file system's metadata, stayed in memory\.`),
		check:   checkCheckpointCache,
	},
	{
		name: "no profile", in: anywhere,
		pattern: pattern(`(?P<says>The run has no profile steps|No profile step finished with measurements|The plan has no profile of its own: its steps that read and wrote are its checkpoints' passes, whose figures are under Checkpoints)\.`),
		check:   checkNoProfile,
	},
	{
		name: "file set cache", in: "File sets",
		pattern: pattern(`(?P<step>.+): the page cache could not be dropped, as drop_caches needs root; only the set's own files were evicted from it, so the step read them from the drive while other cached data stayed in memory\.`),
		check:   checkFileSetCache,
	},
}

// checkpointPhases are the records of a checkpoint's phase ("write" or
// "read") that completed, found by the checkpoint's summary step.
func (sc *scope) checkpointPhases(name, drive, phase string) (*results.Record, []*results.Record) {
	for _, c := range sc.r.Summary.Checkpoints {
		sum := sc.r.Records[c.StepID]
		if c.Name != name || c.Drive != drive || sum == nil || sum.Checkpoint == nil {
			continue
		}
		var out []*results.Record
		for _, p := range sum.Checkpoint.Passes {
			ph := p.Write
			if phase == "read" {
				ph = p.Read
			}
			if ph != nil && sc.r.Records[ph.Step] != nil {
				out = append(out, sc.r.Records[ph.Step])
			}
		}
		return sum, out
	}
	return nil, nil
}

// phaseFigures recomputes a pass step's seconds (its slowest job's), its
// slowest job's bandwidth and the aggregate from its jobs.
func phaseFigures(rec *results.Record) (sec, low, all float64) {
	if rec.Result == nil || rec.Result.Files == nil {
		return 0, 0, 0
	}
	var bytes float64
	low = -1
	for _, j := range rec.Result.Files.Jobs {
		sec = max(sec, j.Seconds)
		bytes += float64(j.Bytes)
		if j.Seconds > 0 && (low < 0 || float64(j.Bytes)/j.Seconds < low) {
			low = float64(j.Bytes) / j.Seconds
		}
	}
	if sec > 0 {
		all = bytes / sec
	}
	return sec, max(low, 0), all
}

func checkCheckpointWrite(sc *scope, g groups) []string {
	sum, recs := sc.checkpointPhases(g["name"], g["drive"], "write")
	if sum == nil || len(recs) == 0 {
		return []string{"no checkpoint of report.json has this name and drive, with a completed write"}
	}
	p := problems(checkCheckpointPhase(sc, g, "write"))
	p.eq("ranks", g["ranks"], strconv.Itoa(len(recs[0].Result.Files.Jobs)), "the write step's jobs")
	over := "1 pass"
	if len(recs) > 1 {
		over = "mean of " + strconv.Itoa(len(recs)) + " passes"
	}
	p.eq("passes", g["over"], over, "the completed write steps")
	p.eq("size", g["bytes"], format.Bytes(uint64(recs[0].Result.Files.Bytes)), "the write step's file set")
	return p
}

// checkCheckpointPhase checks a phase's mean seconds and bandwidths
// against its pass steps' records.
func checkCheckpointPhase(sc *scope, g groups, phase string) []string {
	sum, recs := sc.checkpointPhases(g["name"], g["drive"], phase)
	if sum == nil || len(recs) == 0 {
		return []string{"no checkpoint of report.json has this name and drive, with a completed " + phase}
	}
	var sec, low, all float64
	for _, rec := range recs {
		s, l, a := phaseFigures(rec)
		sec, low, all = sec+s, low+l, all+a
	}
	n := float64(len(recs))
	var p problems
	checkPassFlags(&p, sc, sum, g["flags"])
	p.eq("seconds", g["sec"], format.Grouped(sec/n, 3), "the pass steps' slowest jobs")
	p.eq("slowest rank's bandwidth", g["low"], sc.bw(low/n), "the pass steps' jobs")
	p.eq("aggregate bandwidth", g["all"], sc.bw(all/n), "the pass steps' jobs")
	return p
}

func checkCheckpointCache(sc *scope, g groups) []string {
	_, recs := sc.checkpointPhases(g["name"], g["drive"], "read")
	evicted := 0
	for _, rec := range recs {
		if d := rec.Result.CacheDrop; d != nil && d.Method == metrics.CacheEvicted {
			evicted++
		}
	}
	var p problems
	p.eq("read-backs that evicted only their files", g["n"], strconv.Itoa(evicted), "the read-back steps' records")
	return p
}

func checkFileSetCache(sc *scope, g groups) []string {
	for _, rec := range sc.r.Records {
		if rec.Name == g["step"] && rec.Result != nil && rec.Result.CacheDrop != nil && rec.Result.CacheDrop.Method == metrics.CacheEvicted {
			return nil
		}
	}
	return []string{"no record of this step says the page cache was refused and its files evicted"}
}

// checkPassFlags holds a checkpoint sentence's flag note to the warnings
// of its pass steps: flagged when one of them warned, and only then.
func checkPassFlags(p *problems, sc *scope, sum *results.Record, note string) {
	warned := false
	for _, ps := range sum.Checkpoint.Passes {
		for _, ph := range []*results.CheckpointPhase{ps.Write, ps.Read} {
			if ph != nil && sc.r.Records[ph.Step] != nil && len(sc.r.Records[ph.Step].Warnings) > 0 {
				warned = true
			}
		}
	}
	switch {
	case note == "" && warned:
		p.add("carries no flag, its pass steps warned")
	case note != "" && !warned:
		p.add("carries the flag%s, its pass steps did not warn", note)
	}
}

// checkNoProfile holds what a report says of a run without a profile's
// table to its steps: that it has no profile steps, or none that finished
// with measurements, said of its own profiles (a checkpoint's passes
// apart), is false when it has some, or some that finished; and a run
// whose only steps that read and wrote are its checkpoints' passes must
// say so, where either sentence read as if nothing had measured.
func checkNoProfile(sc *scope, g groups) []string {
	passes := map[string]bool{}
	for _, c := range sc.r.Summary.Checkpoints {
		if sum := sc.r.Records[c.StepID]; sum != nil && sum.Checkpoint != nil {
			for _, ps := range sum.Checkpoint.Passes {
				for _, ph := range []*results.CheckpointPhase{ps.Write, ps.Read} {
					if ph != nil {
						passes[ph.Step] = true
					}
				}
			}
		}
	}
	var own, ownMeasured, passSteps int
	for _, st := range sc.r.Manifest.Steps {
		switch {
		case st.Kind != "profile":
		case passes[st.ID]:
			passSteps++
		default:
			own++
			if rec := sc.r.Records[st.ID]; rec != nil && rec.Status == results.StatusOK && rec.Result != nil {
				ownMeasured++
			}
		}
	}
	onlyPasses := own == 0 && passSteps > 0
	var p problems
	switch g["says"] {
	case "The run has no profile steps":
		if own > 0 {
			p.add("the manifest has %s", format.Counted(own, "profile step"))
		}
	case "No profile step finished with measurements":
		if ownMeasured > 0 {
			p.add("%s finished with measurements", format.Counted(ownMeasured, "profile step"))
		}
	default:
		if !onlyPasses {
			p.add("of the manifest's %s, %d are checkpoints' passes", format.Counted(own+passSteps, "profile step"), passSteps)
		}
		return p
	}
	if onlyPasses {
		p.add("the run's %s, its checkpoints' passes, read and wrote: the sentence must say their figures are under Checkpoints", format.Counted(passSteps, "profile step"))
	}
	return p
}
