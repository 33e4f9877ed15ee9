package native

import (
	"os"

	"github.com/drivebench/drivebench/metrics"
	"golang.org/x/sys/unix"
)

// dropCachesPath is the kernel's switch that empties the page cache.
var dropCachesPath = "/proc/sys/vm/drop_caches"

// dropCache empties the page cache before the measured phase
// (drop_cache), so the run's reads come from the drive: it syncs every
// file system and writes 3 to /proc/sys/vm/drop_caches (page cache,
// dentries and inodes). That needs root; when it is refused, the
// target's own pages (the set's files, or the target file) are evicted
// with posix_fadvise(POSIX_FADV_DONTNEED) instead, which drops clean
// pages of those files only, and the result says so.
func (r *run) dropCache() (*metrics.CacheDrop, error) {
	unix.Sync()
	err := os.WriteFile(dropCachesPath, []byte("3\n"), 0)
	if err == nil {
		return &metrics.CacheDrop{Method: metrics.CacheDropped}, nil
	}
	drop := &metrics.CacheDrop{Method: metrics.CacheEvicted, Refused: err.Error()}
	if r.files == nil {
		return drop, unix.Fadvise(r.fd, 0, 0, unix.FADV_DONTNEED)
	}
	for k := range r.files.sizes {
		if err := evictFile(r.files.path(k)); err != nil {
			return drop, err
		}
	}
	return drop, nil
}

// evictFile drops the clean cached pages of the file at path.
func evictFile(path string) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	defer unix.Close(fd)
	return unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED)
}
