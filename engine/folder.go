package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// A results folder belongs to the plan that made it. A run may write into
// a folder that already holds a run only to go on with it: the same plan,
// its run not finished (or, with -resume, finished but to be completed
// again). Another plan's run, or a finished one, is refused, so that no
// run's records are orphaned or its report replaced without a word.
//
// Whether two plans are one is decided by name and content, not by the
// plan's hash, which changes with every edit or -var: the plan is the
// same when its name (the plan file's base name) is the folder's and at
// least one of its steps is on a drive and of a block (precondition,
// profile, exec step or check) of the same names as a step of the
// folder's. A changed sweep, runtime or variable keeps the plan; a plan
// file replaced by one whose drives and blocks share nothing with the
// folder's is another plan, even under the same file name.

// FolderError refuses a results folder that holds a run the new one must
// not write into.
type FolderError struct {
	Dir string
	// Plan is the plan whose run the folder holds.
	Plan string
	// Other says why the plan to run is another plan than the folder's,
	// "" when it is the same.
	Other string
	// Finished is set when the folder's run reached its end, at Ended
	// (zero when the folder does not say); Unfinished counts its steps
	// that did not complete (failed, interrupted or not run).
	Finished   bool
	Ended      time.Time
	Unfinished int
}

func (e *FolderError) Error() string {
	if e.Other != "" {
		return fmt.Sprintf("%s holds a run of another plan: %s", e.Dir, e.Other)
	}
	return fmt.Sprintf("%s holds a finished run of plan %s", e.Dir, e.Plan)
}

// CheckFolder says whether plan p, expanded into g, may run into the
// results folder dir: nil when dir holds no run yet, or an unfinished run
// of the same plan (the run goes on with it); a *FolderError when it
// holds another plan's run or a finished run; another error when its
// manifest cannot be read (damaged, or written by a newer drivebench),
// which is never overwritten either.
func CheckFolder(dir string, p *plan.Plan, g *plan.Graph) error {
	if _, err := os.Stat(filepath.Join(dir, results.ManifestFile)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	folder, err := results.Open(dir)
	if err != nil {
		return err
	}
	e := &FolderError{Dir: dir, Plan: folder.Manifest.Plan, Other: otherPlan(folder.Manifest, p, g)}
	if e.Ended, e.Finished, err = folder.Finished(); err != nil {
		return fmt.Errorf("%s: read the journal: %w", dir, err)
	}
	if e.Other == "" && !e.Finished {
		return nil
	}
	e.Unfinished = unfinishedSteps(folder)
	return e
}

// unfinishedSteps counts the folder's steps whose journal status is not
// ok or skipped: those -resume runs again.
func unfinishedSteps(f *results.Folder) int {
	status, _ := f.Journal()
	n := 0
	for _, s := range f.Manifest.Steps {
		if st := status[s.ID]; s.Kind != string(plan.KindReport) && st != results.StatusOK && st != results.StatusSkipped {
			n++
		}
	}
	return n
}

// otherPlan says why p is not the plan whose run m describes, or "" when
// it is (see the rule above).
func otherPlan(m *results.Manifest, p *plan.Plan, g *plan.Graph) string {
	if m.Plan != p.Name {
		return fmt.Sprintf("plan %q (%s), not %q", m.Plan, cmp.Or(m.PlanFile, "its file not recorded"), p.Name)
	}
	blocks := map[[2]string]bool{}
	for _, s := range m.Steps {
		if s.Drive != "" {
			blocks[[2]string{s.Drive, s.Source}] = true
		}
	}
	if len(blocks) == 0 {
		return ""
	}
	for _, n := range g.Nodes {
		if blocks[[2]string{n.Drive, n.Source}] {
			return ""
		}
	}
	return fmt.Sprintf("plan %q of the same name, whose drives and blocks (%s) share none with the plan now in %s", m.Plan, blockList(blocks), p.File)
}

// blockList writes drive/block pairs, sorted, at most five.
func blockList(blocks map[[2]string]bool) string {
	var names []string
	for b := range blocks {
		names = append(names, b[0]+"/"+b[1])
	}
	slices.Sort(names)
	if len(names) > 5 {
		names = append(names[:5], fmt.Sprintf("and %d more", len(names)-5))
	}
	return strings.Join(names, ", ")
}

// startRun adds the run's start to the folder's journal, resumed when the
// folder already held steps or runs, and numbers the run: the records it
// writes carry the number.
func (r *runner) startRun() error {
	runs, err := r.folder.Runs()
	if err != nil {
		return err
	}
	e := results.RunEvent{
		Run: results.RunStarted, Time: time.Now().UTC(), PlanHash: r.plan.Hash, Version: r.opt.Version,
		Resumed: len(r.journal) > 0 || len(runs) > 0,
	}
	r.runNumber = 1
	for _, prev := range runs {
		if prev.Run == results.RunStarted {
			r.runNumber++
		}
	}
	for _, id := range slices.Sorted(maps.Keys(r.setAside)) {
		e.SetAside = append(e.SetAside, r.setAside[id])
	}
	return r.folder.AppendRunEvent(e)
}

// endRun adds the run's end to the journal, once: complete when every
// step ran (err nil), else interrupted or stopped, with why.
func (r *runner) endRun(ctx context.Context, err error) error {
	if r.folder == nil || r.ended {
		return nil
	}
	r.ended = true
	e := results.RunEvent{Run: results.RunEnded, Time: time.Now().UTC(), Outcome: results.RunComplete}
	switch {
	case err != nil && ctx.Err() != nil:
		e.Outcome, e.Reason = results.RunInterrupted, interruptReason(ctx)
	case err != nil:
		e.Outcome, e.Reason = results.RunStopped, err.Error()
	}
	if werr := r.folder.AppendRunEvent(e); werr != nil {
		return r.saveError(werr)
	}
	return nil
}

// checkRecords looks at the records the folder already holds before the
// run touches it. A record written by a newer drivebench stops the run:
// this version could overwrite it. A damaged one is moved to damaged/ and
// its step runs again, with a warning that says where the file went.
func (r *runner) checkRecords() error {
	folder := &results.Folder{Dir: r.opt.Dir, Manifest: &results.Manifest{}}
	if _, err := os.Stat(filepath.Join(folder.Dir, results.StepsDir)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	_, unreadable, err := folder.ReadableRecords()
	if err != nil {
		return err
	}
	for _, e := range unreadable {
		if e.Newer {
			return fmt.Errorf("%w; this version could overwrite it, so it runs nothing in %s: resume with that version, or run into another folder (-out NEWDIR)", e, r.opt.Dir)
		}
	}
	r.setAside = map[string]results.SetAsideRecord{}
	for _, e := range unreadable {
		aside, err := folder.SetAside(e)
		if err != nil {
			return err
		}
		r.setAside[e.StepID] = aside
	}
	return nil
}

// setAsideText says what became of a step's damaged record.
func setAsideText(a results.SetAsideRecord) string {
	return fmt.Sprintf("the earlier record of this step, %s, was damaged (%s); it is kept as %s", a.Record, a.Reason, a.KeptAs)
}
