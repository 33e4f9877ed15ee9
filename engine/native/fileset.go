package native

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
	"golang.org/x/sys/unix"
)

// defaultOpenFiles is how many of its files a job keeps open when the
// workload does not say.
const defaultOpenFiles = 256

// fileSet is the files a file-set run does I/O on. The files lie end to
// end in one virtual region, file k at starts[k], so the engine's
// offsets, slices and budgets work on it as on a drive's region; each
// I/O is then mapped to its file and the offset within it.
type fileSet struct {
	// dir is the set's folder: a subfolder of the target's, named after
	// the set's shape, so steps with the same set share its files.
	dir     string
	names   []string
	sizes   []int64
	starts  []int64
	dirs    int
	service workload.FileService
	// flags open a file for the run's transfers.
	flags        int
	createOnOpen bool
	fsyncOnClose bool
	jobs         []*jobFiles
	meta         metaRecorder
	setup        metrics.FileSetup
}

// jobFiles are the files one job owns, count files from first on (one
// file shared by every job in slices, when the set has one file), and
// the ones it has open.
type jobFiles struct {
	first, count int
	limit        int
	mu           sync.Mutex
	fds          []int
	refs         []int32
	used         []uint64
	created      []bool
	open         int
	tick         uint64
	// cursors are each file's sequential position, for a sequential
	// pattern that does not take the files one after another.
	cursors []atomic.Int64
	next    atomic.Int64
	// zipf is the cumulative share of each file, for zipf selection.
	zipf []float64
	// moved counts the bytes the job transferred; begin is when it
	// issued its first operation (an open or create) and end when its
	// last I/O, flush and close completed (Unix ns).
	moved atomic.Int64
	begin atomic.Int64
	end   atomic.Int64
}

// newFileSet lays out w's file set in the target's folder.
func newFileSet(t driver.Target, w workload.Workload) (*fileSet, error) {
	service, err := workload.ParseFileService(w.FileService)
	if err != nil {
		return nil, workloadErrorf("file_service", "%v", err)
	}
	n := w.Files
	fs := &fileSet{dir: filepath.Join(t.Path, w.FileSetName()), service: service, dirs: max(1, w.Dirs),
		createOnOpen: w.CreateOnOpen, fsyncOnClose: w.FsyncOnClose,
		names: make([]string, n), sizes: make([]int64, n), starts: make([]int64, n+1)}
	rng := rand.New(rand.NewPCG(w.FileSetHash(), 0x66696c6573))
	for k := range n {
		fs.names[k] = fileName(k, fs.dirs)
		fs.sizes[k] = w.FileSizeOf(func() float64 { return rng.Float64() * 100 })
		fs.starts[k+1] = fs.starts[k] + fs.sizes[k]
	}
	fs.flags = unix.O_RDONLY | unix.O_CLOEXEC
	if w.Writes() {
		fs.flags = unix.O_RDWR | unix.O_CLOEXEC
	}
	if w.Direct {
		fs.flags |= unix.O_DIRECT
	}
	return fs, nil
}

// fileName is file k's path in the set: f00000007, or d0003/f00000007
// when the files are spread over dirs subfolders, file after file.
func fileName(k, dirs int) string {
	if dirs <= 1 {
		return fmt.Sprintf("f%08d", k)
	}
	return filepath.Join(fmt.Sprintf("d%04d", k%dirs), fmt.Sprintf("f%08d", k))
}

// target is the set as the engine's layout sees it: one region of the
// files' total size.
func (fs *fileSet) target(t driver.Target) driver.Target {
	return driver.Target{Path: fs.dir, Capacity: fs.starts[len(fs.sizes)], BlockSize: t.BlockSize}
}

// checkSizes refuses a file whose size is not a whole number of the
// layout's granule: a transfer would cross into the next file.
func (fs *fileSet) checkSizes(granule int64, w workload.Workload) error {
	for _, size := range fs.sizes {
		if size%granule != 0 || size == 0 {
			return workloadErrorf("file_size", "a file of %d bytes is not a whole number of %s; make every file size a multiple of it",
				size, unitName(w, granule))
		}
	}
	return nil
}

// assign gives each job its files, and its slice of the layout: the
// files' span of the virtual region. With one file every job shares it,
// each with its own slice (as on a drive's region).
func (fs *fileSet) assign(l *layout, w workload.Workload) error {
	n, jobs := len(fs.sizes), w.NumJobs
	if n > 1 && n < jobs {
		return workloadErrorf("files", "files = %d is fewer than numjobs = %d: each job needs a file of its own, or one file they share in slices; raise files to %d or more, set it to 1, or lower numjobs",
			n, jobs, jobs)
	}
	fs.jobs = make([]*jobFiles, jobs)
	for j := range fs.jobs {
		jf := &jobFiles{first: 0, count: 1}
		if n > 1 {
			jf.first, jf.count = j*n/jobs, (j+1)*n/jobs-j*n/jobs
			l.slices[j] = region{start: fs.starts[jf.first], length: fs.starts[jf.first+jf.count] - fs.starts[jf.first]}
		}
		jf.limit = min(jf.count, defaultOpenFiles)
		if w.OpenFiles > 0 {
			jf.limit = min(jf.count, w.OpenFiles)
		}
		jf.fds, jf.refs, jf.used, jf.created = make([]int, jf.count), make([]int32, jf.count), make([]uint64, jf.count), make([]bool, jf.count)
		for i := range jf.fds {
			jf.fds[i] = -1
		}
		jf.cursors = make([]atomic.Int64, jf.count)
		if fs.service.Kind == "zipf" {
			jf.zipf = zipfShares(jf.count, fs.service.Theta)
		}
		fs.jobs[j] = jf
	}
	var err error
	l.budgets, err = jobBudgets(w, *l)
	return err
}

// zipfShares is the cumulative share of each of n files under a zipf
// distribution of skew theta: file i (from 0) is chosen in proportion to
// 1/(i+1)^theta.
func zipfShares(n int, theta float64) []float64 {
	cum := make([]float64, n)
	var total float64
	for i := range cum {
		total += 1 / math.Pow(float64(i+1), theta)
		cum[i] = total
	}
	for i := range cum {
		cum[i] /= total
	}
	return cum
}

// path is file k's full path.
func (fs *fileSet) path(k int) string { return filepath.Join(fs.dir, fs.names[k]) }

// place maps req to a file of the slot's job and the offset in it. at is
// the job's stream position as a byte of the virtual region (the offset
// a sequential pattern's I/O has). The set's selection chooses the file:
// sequential takes the job's files one after another, the file at at,
// so a random pattern's job moves on once it has moved a file's size in
// it; the others choose a file per I/O. The offset in the file is then
// random (a random pattern), at's (sequential selection) or the file's
// own next bytes. With one file every job keeps to its slice of it.
func (fs *fileSet) place(s *slot, req *ioRequest, at int64) {
	if len(fs.sizes) == 1 {
		req.file, req.size = 0, min(req.size, fs.sizes[0]-req.offset)
		return
	}
	jf := fs.jobs[s.job.index]
	var k int
	if fs.service.Kind == "sequential" {
		k = sort.Search(len(fs.sizes), func(i int) bool { return fs.starts[i+1] > at })
	} else {
		k = jf.first + jf.choose(fs.service.Kind, s.fileRNG)
	}
	size := fs.sizes[k]
	switch {
	case s.random != nil:
		req.offset = s.random.rng.Int64N(size/s.random.granule) * s.random.granule
	case fs.service.Kind == "sequential":
		req.offset = at - fs.starts[k]
	default:
		cursor := &jf.cursors[k-jf.first]
		req.offset = (cursor.Add(req.size) - req.size) % size
	}
	req.file, req.size = k, min(req.size, size-req.offset)
}

// choose picks the job's file (its index among the job's files) of the
// next I/O.
func (jf *jobFiles) choose(kind string, rng *rand.Rand) int {
	switch kind {
	case "roundrobin":
		return int((jf.next.Add(1) - 1) % int64(jf.count))
	case "zipf":
		return min(sort.SearchFloat64s(jf.zipf, rng.Float64()), jf.count-1)
	}
	return rng.IntN(jf.count)
}

// acquire gives the open file of req's file for a transfer, opening it
// (creating it first, with create_on_open) when it is not open, and
// closing the job's least recently used idle file when the job has as
// many open as it may.
func (r *run) acquire(j *job, req *ioRequest) (int, error) {
	fs := r.files
	jf := fs.jobs[j.index]
	local := req.file - jf.first
	jf.mu.Lock()
	defer jf.mu.Unlock()
	if jf.begin.Load() == 0 {
		jf.begin.Store(time.Now().UnixNano())
	}
	jf.tick++
	jf.used[local] = jf.tick
	if fd := jf.fds[local]; fd >= 0 {
		jf.refs[local]++
		return fd, nil
	}
	if jf.open >= jf.limit {
		if err := fs.evict(r, jf); err != nil {
			return -1, err
		}
	}
	fd, err := fs.openFile(r, req.file, fs.createOnOpen && !jf.created[local])
	if err != nil {
		return -1, err
	}
	jf.created[local] = true
	jf.fds[local], jf.refs[local] = fd, 1
	jf.open++
	return fd, nil
}

// release hands back a file acquire gave.
func (r *run) release(j *job, req *ioRequest) {
	jf := r.files.jobs[j.index]
	jf.mu.Lock()
	jf.refs[req.file-jf.first]--
	jf.mu.Unlock()
}

// evict closes the job's least recently used file that no I/O is using;
// none when every open file is in use (a job with more I/Os in flight
// than open_files goes over the cap for as long as that lasts).
func (fs *fileSet) evict(r *run, jf *jobFiles) error {
	victim := -1
	for i, fd := range jf.fds {
		if fd >= 0 && jf.refs[i] == 0 && (victim < 0 || jf.used[i] < jf.used[victim]) {
			victim = i
		}
	}
	if victim < 0 {
		return nil
	}
	fd := jf.fds[victim]
	jf.fds[victim] = -1
	jf.open--
	return fs.closeFile(r, jf.first+victim, fd)
}

// openFile opens file k for the run's transfers, timed as an open, or
// as a create when create is set (O_CREAT|O_TRUNC: an existing file is
// emptied).
func (fs *fileSet) openFile(r *run, k int, create bool) (int, error) {
	flags, op := fs.flags, metrics.OpOpen
	if create {
		flags, op = flags|unix.O_CREAT|unix.O_TRUNC, metrics.OpCreate
		if err := os.MkdirAll(filepath.Dir(fs.path(k)), 0o755); err != nil {
			return -1, err
		}
	}
	start := nanotime()
	fd, err := r.sys.open(fs.path(k), flags)
	if err != nil {
		if fs.flags&unix.O_DIRECT != 0 && errors.Is(err, unix.EINVAL) {
			return -1, &directRefusedError{path: fs.path(k), cause: err}
		}
		return -1, &IOError{Path: fs.path(k), Op: "open", Err: err}
	}
	fs.meta.record(op, nanotime()-start)
	return fd, nil
}

// closeFile closes file k's fd, flushing it first with fsync_on_close;
// each timed.
func (fs *fileSet) closeFile(r *run, k, fd int) error {
	var errs []error
	if fs.fsyncOnClose && fs.flags&(unix.O_RDWR|unix.O_WRONLY) != 0 {
		errs = append(errs, fs.fsync(r, k, fd))
	}
	start := nanotime()
	if err := r.sys.close(fd); err != nil {
		errs = append(errs, &IOError{Path: fs.path(k), Op: "close", Err: err})
	} else {
		fs.meta.record(metrics.OpClose, nanotime()-start)
	}
	return errors.Join(errs...)
}

// fsync flushes file k, timed.
func (fs *fileSet) fsync(r *run, k, fd int) error {
	start := nanotime()
	if err := r.sys.fsync(fd); err != nil {
		return &IOError{Path: fs.path(k), Op: "fsync", Err: err}
	}
	fs.meta.record(metrics.OpFsync, nanotime()-start)
	return nil
}

// finishJob closes the files job j still has open, once its I/Os are
// done, and notes when it finished.
func (r *run) finishJob(j *job) {
	jf := r.files.jobs[j.index]
	jf.mu.Lock()
	defer jf.mu.Unlock()
	for i, fd := range jf.fds {
		if fd < 0 {
			continue
		}
		jf.fds[i] = -1
		jf.open--
		if err := r.files.closeFile(r, jf.first+i, fd); err != nil {
			r.fail(err)
		}
	}
	jf.end.Store(time.Now().UnixNano())
}

// moved counts a completed transfer into its job's share.
func (fs *fileSet) moved(j *job, n int) { fs.jobs[j.index].moved.Add(int64(n)) }

// prepareFiles makes the set ready before the run: each file that is
// there at its size is used as it is (a stat); any other is created and,
// for a run that reads, filled with data, flushed and evicted from the
// page cache, as fio lays out its files; for a run that only writes it is
// allocated. With create_on_open the jobs create the files instead. The
// operations are timed into the step's figures with measure_setup.
func (fs *fileSet) prepareFiles(r *run, w workload.Workload) error {
	began := time.Now()
	defer func() { fs.setup.Seconds = time.Since(began).Seconds() }()
	fs.setup.Measured = w.MeasureSetup
	if !w.MeasureSetup {
		defer fs.meta.reset()
	}
	if fs.createOnOpen {
		return fs.emptyShared()
	}
	var fill []byte
	if !w.Writes() || w.ReadPct > 0 && workload.IsMix(w.RW) {
		fill = make([]byte, 1<<20)
		fillRandom(fill, rand.New(rand.NewPCG(w.Seed, 0x6c61796f7574)))
	}
	for k := range fs.sizes {
		if err := fs.prepareFile(r, k, fill); err != nil {
			return err
		}
	}
	return nil
}

// emptyShared empties, before the run, the one file a create_on_open
// set's jobs share, which each job then opens: were each job to create
// it, a late one would empty what the others had written.
func (fs *fileSet) emptyShared() error {
	if len(fs.sizes) > 1 || len(fs.jobs) == 1 {
		return nil
	}
	start := nanotime()
	fd, err := unix.Open(fs.path(0), unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return &IOError{Path: fs.path(0), Op: "create", Err: err}
	}
	fs.meta.record(metrics.OpCreate, nanotime()-start)
	fs.setup.Created++
	for _, jf := range fs.jobs {
		jf.created[0] = true
	}
	return unix.Close(fd)
}

// prepareFile makes file k ready: see prepareFiles.
func (fs *fileSet) prepareFile(r *run, k int, fill []byte) error {
	path := fs.path(k)
	var st unix.Stat_t
	start := nanotime()
	err := unix.Stat(path, &st)
	switch {
	case err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG && st.Size == fs.sizes[k]:
		fs.meta.record(metrics.OpStat, nanotime()-start)
		fs.setup.Reused++
		return nil
	case err == nil || errors.Is(err, unix.ENOENT):
		fs.meta.record(metrics.OpStat, nanotime()-start)
	default:
		return &IOError{Path: path, Op: "stat", Err: err}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	start = nanotime()
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return &IOError{Path: path, Op: "create", Err: err}
	}
	fs.meta.record(metrics.OpCreate, nanotime()-start)
	fs.setup.Created++
	err = layOut(fd, fs.sizes[k], fill)
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		return &IOError{Path: path, Op: "pwrite", Err: err}
	}
	return nil
}

// layOut gives a new file its size: fill written over it, synced and
// evicted from the page cache (a file a run reads), or the space
// allocated (one it only writes), as a truncated size where the file
// system cannot allocate.
func layOut(fd int, size int64, fill []byte) error {
	if fill == nil {
		if err := unix.Fallocate(fd, 0, 0, size); err == nil {
			return nil
		}
		return unix.Ftruncate(fd, size)
	}
	for off := int64(0); off < size; {
		n, err := unix.Pwrite(fd, fill[:min(int64(len(fill)), size-off)], off)
		if err != nil {
			return err
		}
		off += int64(n)
	}
	if err := unix.Fdatasync(fd); err != nil {
		return err
	}
	return unix.Fadvise(fd, 0, size, unix.FADV_DONTNEED)
}

// unlinkAll removes the set's files (unlink), each timed, and its
// folders.
func (fs *fileSet) unlinkAll() error {
	for k := range fs.sizes {
		start := nanotime()
		err := unix.Unlink(fs.path(k))
		if err != nil && !errors.Is(err, unix.ENOENT) {
			return &IOError{Path: fs.path(k), Op: "unlink", Err: err}
		}
		if err == nil {
			fs.meta.record(metrics.OpUnlink, nanotime()-start)
		}
	}
	for d := range min(fs.dirs, len(fs.sizes)) {
		if fs.dirs > 1 {
			_ = os.Remove(filepath.Join(fs.dir, fmt.Sprintf("d%04d", d)))
		}
	}
	if err := os.Remove(fs.dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// stats is the set's part of the result: started is when the measured
// phase began.
func (fs *fileSet) stats(started time.Time) *metrics.FileSetStats {
	out := &metrics.FileSetStats{Files: len(fs.sizes), Dirs: fs.dirs, Bytes: fs.starts[len(fs.sizes)], Setup: fs.setup, Ops: fs.meta.ops()}
	for _, jf := range fs.jobs {
		span := metrics.JobSpan{Bytes: uint64(jf.moved.Load())}
		if end := jf.end.Load(); end > 0 && !started.IsZero() {
			span.Seconds = max(0, time.Unix(0, end).Sub(started).Seconds())
		}
		if begin := jf.begin.Load(); begin > 0 && !started.IsZero() {
			span.StartS = max(0, time.Unix(0, begin).Sub(started).Seconds())
		}
		out.Jobs = append(out.Jobs, span)
	}
	return out
}

// metaRecorder times a file set's metadata operations, one histogram
// each. They are few beside the transfers, so one lock serves them all.
type metaRecorder struct {
	mu    sync.Mutex
	hists map[string]*metrics.Histogram
}

func (m *metaRecorder) record(op string, ns int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.hists == nil {
		m.hists = map[string]*metrics.Histogram{}
	}
	h := m.hists[op]
	if h == nil {
		h = &metrics.Histogram{}
		m.hists[op] = h
	}
	h.Record(uint64(max(ns, 0)))
}

// reset forgets what was recorded: setup that is not measured, a ramp.
func (m *metaRecorder) reset() {
	m.mu.Lock()
	m.hists = nil
	m.mu.Unlock()
}

// ops summarises each operation done, in metrics.MetaOps order.
func (m *metaRecorder) ops() []metrics.MetaOp {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []metrics.MetaOp
	for _, op := range metrics.MetaOps {
		if h := m.hists[op]; h != nil && h.Count() > 0 {
			out = append(out, metrics.MetaOp{Op: op, Count: h.Count(), Lat: h.Summary(metrics.DefaultPercentiles), Hist: h})
		}
	}
	return slices.Clip(out)
}
