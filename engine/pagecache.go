package engine

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// cachedSharePct is the share of a read region the page cache must hold,
// before a buffered step or (for random reads) after it, for its figures
// to be called memory's rather than the drive's.
const cachedSharePct = 10

// pageCacheShare is the percentage of [start, start+length) of the file
// or device at path that the page cache holds, as cachestat(2) counts it.
// ok is false where the kernel cannot tell (before Linux 6.5, a file
// system without a page cache).
func pageCacheShare(path string, start, length int64) (pct float64, ok bool) {
	if length <= 0 {
		return 0, false
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var st unix.Cachestat_t
	if err := unix.Cachestat(uint(f.Fd()), &unix.CachestatRange{Off: uint64(start), Len: uint64(length)}, &st, 0); err != nil {
		return 0, false
	}
	return min(100, 100*float64(st.Cache)*float64(os.Getpagesize())/float64(length)), true
}

// cacheWatch measures how much of a buffered read step's region the page
// cache held before the step, so that its end can say whether the reads
// were served from memory.
type cacheWatch struct {
	path          string
	start, length int64
	before        float64
	random        bool
}

// pageCacheWatcher watches the page cache over a buffered step that
// reads; O_DIRECT steps, write-only steps, file sets (many files), steps
// without a workload (an exec step's command) and files where the kernel
// cannot tell are left alone.
type pageCacheWatcher struct{}

func (pageCacheWatcher) start(s *watchedStep) watching {
	w := s.w
	if w == nil || w.Direct || w.RW == "write" || w.RW == "randwrite" || w.IsFileSet() {
		return nil
	}
	start, length := readRegion(s.target.Capacity, w)
	before, ok := pageCacheShare(s.target.Path, start, length)
	if !ok {
		return nil
	}
	random := w.RW == "randread" || w.RW == "randrw"
	return &cacheWatch{path: s.target.Path, start: start, length: length, before: before, random: random}
}

// finish records the share cached after the step on the record's host
// load and adds the warning the figures need, if any.
func (c *cacheWatch) finish(s *watchedStep) {
	after, ok := pageCacheShare(c.path, c.start, c.length)
	if !ok {
		return
	}
	if s.rec.Host != nil {
		s.rec.Host.CachedPct = &after
	}
	s.rec.Warnings = append(s.rec.Warnings, cacheWarnings(c.before, after, c.random)...)
}

// cacheWarnings say when buffered reads were served from memory: pages
// cached before the step are read from memory, and random reads that
// land on pages an earlier read of the step brought in are too. (A
// sequential pass reads each page once, so what it leaves cached does
// not count against it.)
func cacheWarnings(before, after float64, random bool) []results.Warning {
	var msg string
	switch {
	case before >= cachedSharePct:
		msg = fmt.Sprintf("The page cache held %s of the region this step reads before it started: buffered reads of those pages are served from memory, not the drive, so these figures measure memory.", format.Share(before))
	case random && after >= cachedSharePct:
		msg = fmt.Sprintf("The page cache held %s of the region this step reads by its end: buffered random reads that land on pages read earlier in the step are served from memory, not the drive, so these figures are partly memory's.", format.Share(after))
	default:
		return nil
	}
	return []results.Warning{{Kind: results.WarnPageCache, Message: msg + " Set direct = true to measure the drive, or read a region larger than the host's memory."}}
}
