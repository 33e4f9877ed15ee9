package reports_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/reporttruth"
)

// goldenRuns are the golden reports under testdata/golden/ and the
// results folders under testdata/ they were made from.
var goldenRuns = []string{"quickstart", "review", "qemu", "vendor-acceptance", "latency-qos", "sysbench-fileio", "postgres-oltp", "checkpoint"}

// TestGoldenSentencesTrue reads every sentence of the golden reports
// and recomputes each number in them from report.json and the records
// (internal/reporttruth): a sentence that says another figure, or one
// with numbers no kind of sentence knows, fails.
func TestGoldenSentencesTrue(t *testing.T) {
	for _, name := range goldenRuns {
		t.Run(name, func(t *testing.T) {
			r, err := reporttruth.Load(filepath.Join("testdata", "golden", name), filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range reporttruth.Check(r) {
				t.Error(f)
			}
		})
	}
}

// TestFalseSentencesFound changes one number (or word) of a true sentence
// of a golden report and expects the checker to name that sentence with
// the kind whose rule it breaks: a checker that passes every report
// checks nothing.
func TestFalseSentencesFound(t *testing.T) {
	cases := []struct {
		run, from, to, kind string
	}{
		{"quickstart", "7 steps (6 ok, 1 failed)", "7 steps (7 ok)", "step counts"},
		{"quickstart", "3 check verdicts (1 pass, 1 warn, 1 error)", "3 check verdicts (2 pass, 1 error)", "verdict counts"},
		{"quickstart", "Peak of 590,441 IOPS", "Peak of 590,442 IOPS", "peak"},
		{"quickstart", "(2,418.4 MB/s) at iodepth=16", "(2,418.4 MB/s) at iodepth=4", "peak"},
		{"quickstart", "at iodepth=16 with 108.3 µs mean latency", "at iodepth=16 with 101.4 µs mean latency", "peak"},
		{"quickstart", "iodepth=1: 47,218 IOPS (193.4 MB/s)", "iodepth=1: 47,281 IOPS (193.4 MB/s)", "lightest load"},
		{"quickstart", "At the lightest load, iodepth=1:", "At the lightest load, iodepth=4:", "lightest load"},
		{"quickstart", "the points with the 1,000,000 I/Os it needs did not record it (their records keep no latency histogram to read it from).",
			"no point had the 1,000,000 I/Os it needs for 10 of them to lie beyond it.", "p99.999 left out"},
		{"quickstart", "Spec sheet of nvme0: 2 figures no accept block judged.", "Spec sheet of nvme0: 3 figures no accept block judged.", "spec sheet not judged"},
		{"review", "Over 2 h 00 min, IOPS fell from 518,504", "Over 2 h 00 min, IOPS fell from 518,540", "series"},
		{"review", "to 160,945 (last tenth)", "to 169,045 (last tenth)", "series"},
		{"review", "Over 2 h 00 min, IOPS fell", "Over 1 h 00 min, IOPS fell", "series"},
		{"review", "IOPS fell from 518,504", "IOPS held near 518,504", "series"},
		{"review", "by single run 51.9 %", "by single run 15.9 %", "interval noise"},
		{"review", "214.9% ahead of", "241.9% ahead of", "ranking"},
		{"review", "up to iodepth=4, numjobs=16 (761.9 µs)", "up to iodepth=4, numjobs=16 (716.9 µs)", "peak"},
		{"review", "up to iodepth=4, numjobs=16 (761.9 µs) and exceeded it from iodepth=8, numjobs=16 on",
			"up to iodepth=2, numjobs=16 (761.9 µs) and exceeded it from iodepth=8, numjobs=16 on", "peak"},
		{"review", "p99 was 1.33 ms", "p99 was 1.23 ms", "peak"},
		{"review", "drive temperature 43 to 81 °C over 1443 readings", "drive temperature 43 to 80 °C over 1443 readings", "drive temperature"},
		{"review", "heavy thermal throttling once (105 s)", "heavy thermal throttling twice (105 s)", "drive temperature"},
		{"qemu", "IOPS over 5 rounds (CV 2.4 %), mean 10,540", "IOPS over 5 rounds (CV 2.4 %), mean 10,450", "round spread"},
		{"qemu", "IOPS over 5 rounds (CV 2.4 %)", "IOPS over 5 rounds (CV 4.2 %)", "round spread"},
		{"qemu", "IOPS averaged 10,540", "IOPS averaged 10,541", "steady state reached"},
		{"qemu", "changed by -5.5% across", "changed by -6.5% across", "steady state reached"},
		{"qemu", "1 point was skipped", "2 points were skipped", "skipped points"},
		{"qemu", "(9,196 data units", "(9,197 data units", "data written"},
		{"qemu", "Its temperature was 50 °C at both readings", "Its temperature was 51 °C at both readings", "temperature"},
		{"qemu", "Kept from earlier revisions of the plan: 6 records", "Kept from earlier revisions of the plan: 7 records", "records of earlier steps"},
		{"qemu", "`324ea6cf`: 12 steps", "`324ea6cf`: 13 steps", "earlier revision"},
		{"qemu", "Measured over 2 runs (", "Measured over 3 runs (", "runs"},
		{"qemu", "Skipped, as the plan asks: 3 steps", "Skipped, as the plan asks: 4 steps", "skipped steps"},
		{"qemu", "nvme0 / 4k-write-steady: 2 steps", "nvme0 / 4k-write-steady: 1 step", "skipped group"},
		{"vendor-acceptance", "tolerance 5%: 9 figures (1 pass, 3 warn, 5 skip)", "tolerance 5%: 9 figures (2 pass, 2 warn, 5 skip)", "accept block"},
		{"vendor-acceptance", "Spec sheet of dut (spec-sheet): 9 figures", "Spec sheet of dut (spec-sheet): 8 figures", "spec sheet judged"},
		{"vendor-acceptance", "exceeded 1 ms at 7 of 8 points", "exceeded 1 ms at 6 of 8 points", "peak"},
		{"vendor-acceptance", "p99 was 921.6 µs", "p99 was 912.6 µs", "peak"},
		{"vendor-acceptance", "by iodepth=8 2.4 %", "by iodepth=8 4.2 %", "interval noise"},
		{"latency-qos", "The search measured 10 points", "The search measured 11 points", "adaptive search"},
		{"latency-qos", "and stopped after iodepth=31:", "and stopped after iodepth=30:", "adaptive search"},
		{"latency-qos", "next_point returned None after 10 points.", "next_point returned None after 9 points.", "adaptive search"},
		{"sysbench-fileio", "(stdout, last 3 lines; the whole of it is in `steps/dfa5a24ecd11.stdout`)", "(stdout, last 4 lines; the whole of it is in `steps/dfa5a24ecd11.stdout`)", "output tail"},
		{"quickstart", "| 590,441 IOPS | iodepth=16 |", "| 590,441 IOPS | iodepth=4 |", "Conclusion table"},
		{"quickstart", "| iodepth=16 | 108.3 µs | 241.7 µs |", "| iodepth=16 | 108.3 µs | 214.7 µs |", "Conclusion table"},
		{"review", "| 1,973,400 IOPS | rate=max | 129.7 µs | 311.3 µs | 1 of 2 |", "| 1,973,400 IOPS | rate=max | 129.7 µs | 311.3 µs | 2 of 2 |", "Conclusion table"},
		{"review", "| 13,293.7 MB/s | iodepth=32, numjobs=2 |", "| 13,293.7 MB/s (⚠ host-bound) | iodepth=32, numjobs=2 |", "Conclusion table"},
		{"qemu", "| 21,413 IOPS | max rate¹ |", "| 21,413 IOPS | max rate |", "Conclusion table"},
		{"qemu", "| 10,540 IOPS | window avg of rounds 2-6 |", "| 10,540 IOPS | avg of rounds 2-6, not steady |", "Conclusion table"},
		{"vendor-acceptance", "| PASS rand_write_4k iops: 138.8% |", "| WARN rand_write_4k iops: 138.8% |", "Conclusion table"},
		{"vendor-acceptance", "| 117,939 IOPS<br>at random.randwrite / iodepth=32, numjobs=4 | 138.8% |", "| 117,939 IOPS<br>at random.randwrite / iodepth=32, numjobs=4 | 183.8% |", "Spec acceptance table"},
		{"vendor-acceptance", "| 87,243 IOPS<br>at random.randread", "| 78,243 IOPS<br>at random.randread", "Spec acceptance table"},
		{"review", "Serial Cables Gen5 JBOF", "Serial Cables Gen4 JBOF", "testbed"},
		{"quickstart", "sweeps `iodepth` over 1, 4, 16;", "sweeps `iodepth` over 1, 4, 32;", "method"},
		{"review", "90%, 100%; region: first 25% of capacity.", "90%, 100%; region: first 52% of capacity.", "method"},
		{"qemu", "FW 7.2.22, 1.07 GB (reported by the drive)", "FW 7.2.22, 1.08 GB (reported by the drive)", "identity"},
		{"qemu", "serial deadbeef, 1GiB).", "serial deadbeef, 2GiB).", "target"},
		{"checkpoint", "8 ranks wrote 16.78 MB per pass", "4 ranks wrote 16.78 MB per pass", "checkpoint write"},
		{"checkpoint", "per pass in 0.042 s (the slowest rank, mean of 2 passes)", "per pass in 0.024 s (the slowest rank, mean of 2 passes)", "checkpoint write"},
		{"checkpoint", "51.8 MB/s for the slowest rank and 414.0 MB/s in all (⚠ host-bound).", "51.8 MB/s for the slowest rank and 441.0 MB/s in all (⚠ host-bound).", "checkpoint write"},
		{"checkpoint", "940.6 MB/s in all (⚠ host-bound).", "940.6 MB/s in all.", "checkpoint read-back"},
		{"checkpoint", "read it back in 0.021 s, 117.6 MB/s", "read it back in 0.021 s, 171.6 MB/s", "checkpoint read-back"},
		// A sentence with a number that no kind knows.
		{"quickstart", "p99 stayed under 1 ms throughout.", "p99 stayed under 1 ms throughout. The drive wrote 5 GB.", ""},
	}
	for _, tc := range cases {
		t.Run(tc.run+"/"+tc.to, func(t *testing.T) {
			r, err := reporttruth.Load(filepath.Join("testdata", "golden", tc.run), filepath.Join("testdata", tc.run))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Count(r.Markdown, tc.from) != 1 {
				t.Fatalf("report.md of %s holds %q %d times, want once", tc.run, tc.from, strings.Count(r.Markdown, tc.from))
			}
			r.Markdown = strings.Replace(r.Markdown, tc.from, tc.to, 1)
			found := reporttruth.Check(r)
			for _, f := range found {
				if f.Kind == tc.kind && (strings.Contains(f.Sentence, tc.to) || strings.Contains(tc.to, f.Sentence)) {
					return
				}
			}
			t.Errorf("the false sentence was not found as kind %q; found %d: %v", tc.kind, len(found), found)
		})
	}
}
