package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/drivebench/drivebench/nvme"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// driveHealth is what an NVMe drive said about itself around the run, as
// the nvme package read it: what hooks see as drive["health"]. The results
// folder keeps it as a results.Health (HealthRecord).
type driveHealth struct {
	Before *nvme.HealthSnapshot `json:"before"`
	After  *nvme.HealthSnapshot `json:"after,omitempty"`
	// Change is how the SMART counters moved; EngineBytesWritten is what
	// drivebench wrote in the same time, to set beside the drive's count.
	Change             *nvme.SmartChange `json:"change,omitempty"`
	EngineBytesWritten uint64            `json:"engine_bytes_written"`
	// WriteCache is set when the plan switched the volatile write cache.
	WriteCache *results.WriteCache `json:"volatile_write_cache,omitempty"`
	Error      string              `json:"error,omitempty"`
}

// snapshotBefore reads the identity and health of every NVMe drive, and
// adds the identity to the drive's facts before the manifest is written.
func (r *runner) snapshotBefore() {
	r.health = map[string]*driveHealth{}
	for name, t := range r.targets {
		if !nvme.IsNVMe(t.io.Path) {
			continue
		}
		snap, err := nvme.Snapshot(t.io.Path)
		h := &driveHealth{Before: snap}
		if err != nil {
			h.Error = "identity and SMART before the run: " + err.Error()
		} else {
			addIdentityFacts(t.facts, snap)
		}
		r.health[name] = h
	}
}

// saveHealth stores the drives' health, so the report can show it even
// if the run never ends.
func (r *runner) saveHealth() error {
	for name, h := range r.health {
		rec := HealthRecord(name, h.Before, h.After, h.EngineBytesWritten, h.Error)
		rec.WriteCache = h.WriteCache
		if err := r.folder.WriteHealth(rec); err != nil {
			return r.saveError(err)
		}
	}
	return nil
}

// addIdentityFacts puts what the controller says about itself beside the
// other facts of the drive.
func addIdentityFacts(facts map[string]string, s *nvme.HealthSnapshot) {
	if c := s.IDCtrl; c != nil {
		facts["model"], facts["serial"], facts["firmware"] = c.MN, c.SN, c.FR
	}
}

// snapshotAfter reads the health of every NVMe drive again and stores
// how its counters moved beside what the engine wrote.
func (r *runner) snapshotAfter() error {
	for name, h := range r.health {
		if h.Before == nil {
			continue
		}
		after, err := nvme.Snapshot(r.targets[name].io.Path)
		switch {
		case err != nil:
			h.Error = "SMART after the run: " + err.Error()
		default:
			h.After = after
			if h.Change, err = nvme.DiffSmart(h.Before.SmartLog, after.SmartLog); err != nil {
				h.Error = err.Error()
			}
		}
		h.EngineBytesWritten = r.bytesWritten(name)
	}
	return r.saveHealth()
}

// bytesWritten adds up what this run's steps wrote to a drive.
func (r *runner) bytesWritten(drive string) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n uint64
	for _, rec := range r.out.Records {
		if rec.Drive == drive && rec.Started.After(r.start) && rec.Result != nil && rec.Result.Write != nil {
			n += rec.Result.Write.Bytes
		}
	}
	return n
}

// runPurge erases the drive with the node's method: sanitize or format,
// through the NVMe admin commands. The plan has said destructive = true
// and the drive is writable, or the node would not exist.
func (r *runner) runPurge(ctx context.Context, i int, n *plan.Node, rec *results.Record) {
	path := r.targets[n.Drive].io.Path
	if !nvme.IsNVMe(path) {
		rec.Status = results.StatusFailed
		rec.Error = fmt.Sprintf("purge needs an NVMe namespace, and %s is not one; point the drive at a /dev/nvmeXnY device or remove the purge precondition", path)
		return
	}
	start := time.Now()
	progress := func(done float64) {
		r.emit(Event{Kind: StepProgress, Index: i, Total: len(r.graph.Nodes), Node: n, Progress: done, Elapsed: time.Since(r.start)})
	}
	if err := nvme.Purge(ctx, path, n.PurgeMethod, progress); err != nil {
		rec.Status, rec.Error = results.StatusFailed, err.Error()
		return
	}
	rec.Log = append(rec.Log, fmt.Sprintf("purged %s with %s in %s", path, n.PurgeMethod, time.Since(start).Round(time.Millisecond)))
}
