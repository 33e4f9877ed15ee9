package engine

import (
	"errors"
	"fmt"

	"github.com/drivebench/drivebench/nvme"
	"github.com/drivebench/drivebench/results"
)

// switchWriteCaches puts the volatile write cache of every drive whose
// plan says volatile_write_cache into that state, before the first I/O,
// and records the state found among the drive's facts. A drive that is not
// an NVMe namespace, or whose controller has no volatile write cache,
// stops the run here with the reason; caches already switched are put
// back first.
func (r *runner) switchWriteCaches() error {
	r.caches = map[string]*nvme.WriteCacheSwitch{}
	var errs []error
	for _, d := range r.plan.Drives {
		t := r.targets[d.Name]
		if d.VolatileWriteCache == nil || t == nil {
			continue
		}
		if !nvme.IsNVMe(t.io.Path) {
			errs = append(errs, fmt.Errorf("drive %q: volatile_write_cache switches an NVMe controller's write cache, and %s is not an NVMe namespace; point the drive at /dev/nvmeXnY or remove volatile_write_cache", d.Name, t.io.Path))
			continue
		}
		s, err := nvme.SwitchWriteCache(t.io.Path, *d.VolatileWriteCache)
		if err != nil {
			errs = append(errs, fmt.Errorf("drive %q: volatile_write_cache = %t: %w", d.Name, *d.VolatileWriteCache, err))
			continue
		}
		r.caches[d.Name] = s
		t.facts["volatile_write_cache"] = fmt.Sprintf("%s for the run (found %s, restored after it)", enabled(s.Set), enabled(s.Found))
	}
	if len(errs) > 0 {
		errs = append(errs, r.restoreWriteCaches())
		return errors.Join(errs...)
	}
	return nil
}

// restoreWriteCaches puts every switched write cache back as it was found
// and notes the outcome in the drive's health document. It is safe to
// call again: a restored cache is left alone.
func (r *runner) restoreWriteCaches() error {
	var errs []error
	for name, s := range r.caches {
		rec := &results.WriteCache{Found: s.Found, Set: s.Set, Restored: true}
		if err := s.Restore(); err != nil {
			rec.Restored, rec.Error = false, err.Error()
			errs = append(errs, fmt.Errorf("drive %q: the volatile write cache could not be put back %s: %w; set it with nvme set-feature %s -f 6 -v %s", name, enabled(s.Found), err, s.Path, wce(s.Found)))
		} else {
			delete(r.caches, name)
		}
		if h := r.health[name]; h != nil {
			h.WriteCache = rec
		}
	}
	return errors.Join(errs...)
}

// restoreOnExit restores the write caches of a run that ended early (an
// interrupt, a failed save) and keeps the outcome; a run that ends
// normally has restored them before its reports.
func (r *runner) restoreOnExit() error {
	if len(r.caches) == 0 {
		return nil
	}
	err := r.restoreWriteCaches()
	if r.folder != nil {
		err = errors.Join(err, r.saveHealth())
	}
	return err
}

// wce is the value of feature 06h for a cache state.
func wce(on bool) string {
	if on {
		return "1"
	}
	return "0"
}

// enabled names a cache state.
func enabled(on bool) string {
	if on {
		return "enabled"
	}
	return "disabled"
}
