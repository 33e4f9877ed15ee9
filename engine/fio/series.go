package fio

import (
	"bufio"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/metrics"
)

// The driver asks fio for interval logs averaged over logInterval ms:
// per job N, IOPS (log_iops.N.log), bandwidth in KiB/s (log_bw.N.log) and
// mean total latency in ns (log_lat.N.log), each line "time ms, value,
// direction, ...". In client mode fio writes them on the client, with
// ".<host>" appended to the name.
const (
	logPrefix   = "log"
	logInterval = 1000
	// logJitter is how late after an interval's end fio may stamp its
	// line; a later stamp closes the next, partial interval.
	logJitter = 50
)

// logOptions ask fio for the interval logs under dir.
func logOptions(dir string) []option {
	prefix := filepath.Join(dir, logPrefix)
	return []option{
		{"write_iops_log", prefix},
		{"write_bw_log", prefix},
		{"write_lat_log", prefix},
		{"log_avg_msec", strconv.Itoa(logInterval)},
	}
}

// logKey is an interval and a direction (0 read, 1 write).
type logKey struct {
	interval int
	dir      int
}

// readLog reads an interval log into values by interval and direction;
// lines it cannot read are skipped. Lines come in time order, one per
// interval and direction.
func readLog(path string) map[logKey]float64 {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	values := map[logKey]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ",")
		if len(fields) < 3 {
			continue
		}
		ms, err1 := strconv.ParseFloat(strings.TrimSpace(fields[0]), 64)
		v, err2 := strconv.ParseFloat(strings.TrimSpace(fields[1]), 64)
		dir, err3 := strconv.Atoi(strings.TrimSpace(fields[2]))
		k := int(math.Ceil((ms - logJitter) / logInterval))
		if err1 != nil || err2 != nil || err3 != nil || dir < 0 || dir > 1 || k < 1 {
			continue
		}
		key := logKey{k, dir}
		if _, taken := values[key]; taken {
			// a stamp within logJitter of the line before it closes
			// the partial interval after that line's
			key.interval++
		}
		values[key] = v
	}
	return values
}

// interval is one interval of the series being assembled, summed over
// jobs and hosts.
type interval struct {
	iops, bw            [2]float64
	latWeighted, weight float64
}

// series assembles samples from the jobs' interval logs.
type series struct {
	intervals map[int]*interval
	// end is the longest job's runtime in seconds.
	end float64
}

func (s *series) at(k int) *interval {
	if s.intervals[k] == nil {
		s.intervals[k] = &interval{}
	}
	return s.intervals[k]
}

var iopsLogName = regexp.MustCompile(`^` + logPrefix + `_iops\.(\d+)\.log`)

// readSeries assembles the time series of a run from the interval logs
// in dirs (one folder per host) and the jobs of each folder, in fio's job
// order. fio 3.33 writes no IOPS or bandwidth line for a job's last,
// partial interval; it is completed from the job's totals.
func readSeries(dirs []string, jobs [][]Job) []metrics.Sample {
	s := &series{intervals: map[int]*interval{}}
	for i, dir := range dirs {
		logs, _ := filepath.Glob(filepath.Join(dir, logPrefix+"_iops.*"))
		for _, path := range logs {
			m := iopsLogName.FindStringSubmatch(filepath.Base(path))
			if m == nil {
				continue
			}
			n, _ := strconv.Atoi(m[1])
			if n >= 1 && n <= len(jobs[i]) {
				s.addJob(path, jobs[i][n-1].figures)
			}
		}
	}
	return s.samples()
}

// addJob adds one job's logs, found by the name of its IOPS log.
func (s *series) addJob(iopsPath string, f jobFigures) {
	dir, name := filepath.Split(iopsPath)
	iops := readLog(iopsPath)
	bw := readLog(filepath.Join(dir, strings.Replace(name, "_iops.", "_bw.", 1)))
	lat := readLog(filepath.Join(dir, strings.Replace(name, "_iops.", "_lat.", 1)))
	last := 0
	for k, v := range iops {
		s.at(k.interval).iops[k.dir] += v
		s.at(k.interval).bw[k.dir] += bw[k] * 1024
		last = max(last, k.interval)
	}
	runtime := float64(max(f.read.runtimeMs, f.write.runtimeMs)) / 1000
	s.end = max(s.end, runtime)
	s.addRemainder(iops, bw, last, runtime, f)
	for k, v := range lat {
		w := iops[k]
		if w == 0 {
			continue
		}
		s.at(k.interval).latWeighted += v * w
		s.at(k.interval).weight += w
	}
}

// addRemainder puts what the job's totals hold beyond its logged
// intervals into the interval after them; the job's rates there are
// recorded in iops.
func (s *series) addRemainder(iops, bw map[logKey]float64, last int, runtime float64, f jobFigures) {
	secs := runtime - float64(last)*logInterval/1000
	if secs <= 0 {
		return
	}
	for dir, d := range []dirFigures{f.read, f.write} {
		var ios, kib float64
		for k, v := range iops {
			if k.dir == dir {
				ios += v * logInterval / 1000
				kib += bw[k] * logInterval / 1000
			}
		}
		remIOs := float64(d.ios) - ios
		if remIOs <= 0 {
			continue
		}
		key := logKey{last + 1, dir}
		iops[key] = remIOs / secs
		in := s.at(key.interval)
		in.iops[dir] += remIOs / secs
		in.bw[dir] += max(0, float64(d.bytes)-kib*1024) / secs
	}
}

// samples orders the intervals; the last one ends with the longest job,
// folded into the one before it when it is only the drain of the run's
// end (metrics.FoldStub).
func (s *series) samples() []metrics.Sample {
	var out []metrics.Sample
	var written float64
	keys := slices.Sorted(maps.Keys(s.intervals))
	for i, k := range keys {
		in := s.intervals[k]
		t := float64(k) * logInterval / 1000
		if i == len(keys)-1 && s.end > t-logInterval/1000 {
			t = s.end
		}
		dt := t
		if len(out) > 0 {
			dt = t - out[len(out)-1].T
		}
		written += in.bw[1] * dt
		smp := metrics.Sample{T: t, ReadIOPS: in.iops[0], WriteIOPS: in.iops[1], BW: in.bw[0] + in.bw[1], BytesWritten: uint64(written)}
		if in.weight > 0 {
			smp.MeanLatNs = in.latWeighted / in.weight
		}
		out = append(out, smp)
	}
	return metrics.FoldStub(out)
}
