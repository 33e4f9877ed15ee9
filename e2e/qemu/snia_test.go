package qemu

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/reports"
)

// sniaRounds is how many rounds the smoke variables allow each
// steady-state test: SNIA's window, so the last round judges it.
const sniaRounds = 5

// checkSNIA: SNIA's PTS example, scaled down by its smoke variables, ran
// on the emulated drive, and its report carries what PTS publishes: each
// test after a purge, the IOPS test's rounds judged by range and slope as
// shares of the mean against SNIA's limits with a reason per round, the
// cells as averages over the measurement window, the throughput and
// latency tables, the write saturation with the bound that ended it, and
// the volatile write cache off for the run and back on after it.
func checkSNIA(t *testing.T, steps map[string]*guestStep) {
	run := step(t, steps, "snia-run")
	t.Logf("drivebench run pts-e.hcl exited %d:\n%s%s", run.rc, run.stdout, run.stderr)
	if run.rc != 0 {
		t.Errorf("drivebench run pts-e.hcl exited %d, want 0; the kernel's messages:\n%s", run.rc, kernelLog(step(t, steps, "snia-kernel").stdout))
	}
	var rep reports.Summary
	s := step(t, steps, "snia-report-json")
	if err := json.Unmarshal([]byte(s.stdout), &rep); s.rc != 0 || err != nil {
		t.Fatalf("report.json: exit %d, %v\n%s", s.rc, err, s.stderr)
	}
	md := step(t, steps, "snia-report").stdout

	checkSNIASteadyState(t, &rep)
	checkSNIATables(t, &rep, md)
	purges := 0
	for _, p := range rep.Preconditioning {
		if p.Precondition == "purge" {
			purges++
			if p.Status != "ok" {
				t.Errorf("purge: %s", p.Status)
			}
		}
	}
	if purges != 5 {
		t.Errorf("%d purges recorded, want one before each of the 5 tests", purges)
	}
	if len(rep.Health) != 1 || rep.Health[0].WriteCache == nil {
		t.Fatalf("report.json health %+v: want the drive's write cache", rep.Health)
	}
	if wc := rep.Health[0].WriteCache; !wc.Found || wc.Set || !wc.Restored {
		t.Errorf("volatile write cache %+v; want found on, held off for the run, restored", *wc)
	}
	if after := cacheValue(t, step(t, steps, "snia-cache-after")); after != "on" {
		t.Errorf("volatile write cache %s after the run (nvme-cli), want on", after)
	}
	t.Logf("report.md of the SNIA run, its results and steady state:\n%s", sniaExcerpt(md))
}

// checkSNIASteadyState: every steady-state test was judged after each
// round by SNIA's rule; the IOPS test's last round judged the 5-round
// window by range and slope as shares of its mean, against 20 % and 10 %.
func checkSNIASteadyState(t *testing.T, rep *reports.Summary) {
	want := map[string]string{"iops": "iops", "throughput.1024KiB": "bw", "throughput.128KiB": "bw", "latency": "mean"}
	for _, ss := range rep.SteadyState {
		variable, ok := want[ss.Profile]
		if !ok {
			t.Errorf("a steady-state search of %q", ss.Profile)
			continue
		}
		delete(want, ss.Profile)
		if ss.Variable != variable || ss.Rule != "snia" || len(ss.Rounds) == 0 || len(ss.Rounds) > sniaRounds {
			t.Errorf("%s: tracks %q by rule %q over %d rounds; want %q by snia, 1 to %d rounds", ss.Profile, ss.Variable, ss.Rule, len(ss.Rounds), variable, sniaRounds)
		}
		for _, r := range ss.Rounds {
			if r.Judgement == "" {
				t.Errorf("%s round %d: no judgement", ss.Profile, r.Round)
			}
		}
		if ss.Reached == ss.Exhausted {
			t.Errorf("%s: reached %v, exhausted %v; in %d rounds the search either reaches steady state or runs out", ss.Profile, ss.Reached, ss.Exhausted, sniaRounds)
		}
	}
	if len(want) > 0 {
		t.Errorf("no steady-state search of %v", want)
	}
	var iops *reports.SteadyState
	for i := range rep.SteadyState {
		if rep.SteadyState[i].Profile == "iops" {
			iops = &rep.SteadyState[i]
		}
	}
	if iops == nil || len(iops.Rounds) != sniaRounds {
		t.Fatalf("IOPS steady state %+v; want %d rounds judged", iops, sniaRounds)
	}
	last := iops.Rounds[sniaRounds-1]
	if iops.WindowFirst != 1 || iops.WindowLast != sniaRounds || iops.RangeLimitPct != 20 || iops.SlopeLimitPct != 10 ||
		iops.RangePct <= 0 || last.RangePct != iops.RangePct || last.SlopePct != iops.SlopePct {
		t.Errorf("IOPS steady state: window %d-%d, range %.1f%% (limit %g%%), slope %.1f%% (limit %g%%), round %d %+v; want the window 1-%d judged against 20%% and 10%%",
			iops.WindowFirst, iops.WindowLast, iops.RangePct, iops.RangeLimitPct, iops.SlopePct, iops.SlopeLimitPct, sniaRounds, last, sniaRounds)
	}
	// Steady or not on the emulated drive, the judgement says why.
	outcome := map[bool]string{true: "steady state reached over rounds 1-5", false: "steady state not reached in 5 rounds"}[iops.Reached]
	shares := fmt.Sprintf("range %.1f%% of the mean (limit 20%%), slope %.1f%% (limit 10%%)", iops.RangePct, iops.SlopePct)
	if !strings.HasPrefix(last.Judgement, outcome) || !strings.HasSuffix(last.Judgement, shares) {
		t.Errorf("IOPS round %d judged %q; want %q ... %q", sniaRounds, last.Judgement, outcome, shares)
	}
	t.Logf("IOPS steady state: reached %v over rounds %d-%d, range %.1f%%, slope %.1f%%: %q",
		iops.Reached, iops.WindowFirst, iops.WindowLast, iops.RangePct, iops.SlopePct, last.Judgement)
}

// checkSNIATables: the IOPS, throughput and latency tables show each cell
// as the average of the measurement window's rounds, and the write
// saturation names the bound that ended it; report.md says the same.
func checkSNIATables(t *testing.T, rep *reports.Summary, md string) {
	want := map[string]int{"iops": 4, "throughput.1024KiB": 2, "throughput.128KiB": 2, "latency": 2, "write-saturation": 1}
	for _, res := range rep.Results {
		if want[res.Profile] != len(res.Rows) {
			t.Errorf("%s: %d rows, want %d", res.Profile, len(res.Rows), want[res.Profile])
		}
		delete(want, res.Profile)
		if !strings.Contains(md, "### "+res.Profile+" on "+res.Drive) {
			t.Errorf("report.md has no section %q", res.Profile+" on "+res.Drive)
		}
		for _, row := range res.Rows {
			name := res.Profile + " " + row.Point
			if row.Status != "ok" || row.Total == nil || row.Total.IOPS <= 0 {
				t.Errorf("%s: %s, %+v", name, row.Status, row.Total)
				continue
			}
			if res.Profile == "write-saturation" {
				if row.EndedBy != "io_size" && row.EndedBy != "runtime" {
					t.Errorf("%s: ended_by %q, want io_size or runtime", name, row.EndedBy)
				}
				continue
			}
			checkWindowRow(t, name, row.WindowFirst, row.WindowLast, row.Round, row.Rounds, row.Total)
		}
	}
	if len(want) > 0 {
		t.Errorf("no table of %v", want)
	}
	// A window's rows say whether its rounds reached steady state, which on
	// the emulated drive of a loaded machine they may not.
	window := "window avg of rounds 1-5"
	for _, ss := range rep.SteadyState {
		if ss.Profile == "iops" && !ss.Reached {
			window = "avg of rounds 1-5, not steady"
		}
	}
	for _, text := range []string{"## Steady state", "| Round | IOPS | Range | Slope | Judgement |", "(limit 20%)", window} {
		if !strings.Contains(md, text) {
			t.Errorf("report.md does not say %q", text)
		}
	}
	if !regexp.MustCompile(`ended (by io_size|at runtime)`).MatchString(md) {
		t.Error("report.md does not say what ended the write saturation")
	}
}

// checkWindowRow: a steady-state row whose window was judged shows the
// mean of the window's rounds, each marked used.
func checkWindowRow(t *testing.T, name string, first, last, round int, rounds []reports.RoundResult, total *reports.Figures) {
	t.Helper()
	if first == 0 {
		if round == 0 || round != len(rounds) || len(rounds) > sniaRounds {
			t.Errorf("%s: round %d of %d and no window", name, round, len(rounds))
		}
		return
	}
	var sum float64
	n := 0
	for _, r := range rounds {
		if r.Used != (r.Round >= first && r.Round <= last) {
			t.Errorf("%s: round %d used %v in the window %d-%d", name, r.Round, r.Used, first, last)
		}
		if r.Used && r.Total != nil {
			sum += r.Total.IOPS
			n++
		}
	}
	if mean := sum / float64(max(n, 1)); n != last-first+1 || total.IOPS < mean*0.999 || total.IOPS > mean*1.001 {
		t.Errorf("%s: %.0f IOPS for the window %d-%d, the mean of its %d rounds is %.0f", name, total.IOPS, first, last, n, mean)
	}
}

// sniaExcerpt is the part of report.md PTS publishes: the results
// through the steady-state section, up to the drive health.
func sniaExcerpt(md string) string {
	start := strings.Index(md, "## Results")
	end := strings.Index(md, "## Drive health")
	if start < 0 || end < start {
		return md
	}
	return md[start:end]
}

// kernelLog picks the kernel's messages since the guest's /init
// started: I/O errors, timeouts, controller resets, warnings.
func kernelLog(dmesg string) string {
	if i := strings.Index(dmesg, "Run /init"); i >= 0 {
		dmesg = dmesg[i:]
	}
	return dmesg
}
