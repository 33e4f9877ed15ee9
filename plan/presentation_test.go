package plan

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/workload"
)

// ladderPlan sweeps a read share across explicit (workers, queue depth)
// points, as Tom's Hardware's latency ladder does, pausing between steps.
const ladderPlan = `
drive "nvme" {
  path                 = "/dev/nvme0n1"
  writable             = true
  volatile_write_cache = false
}

profile "ladder" {
  rw       = "randrw"
  runtime  = "10s"
  pause    = "5s"
  headline = "lat"
  sweep {
    read_pct = [100, 70]
    points = [
      { numjobs = 1, iodepth = 1 },
      { iodepth = 4, numjobs = 1 },
      { numjobs = 4, iodepth = 32 },
    ]
  }
}

report {
  units = "MiB/s"
}
`

func TestExplicitSweepPoints(t *testing.T) {
	p := mustLoad(t, writeFile(t, t.TempDir(), "ladder.hcl", ladderPlan), nil)
	g := Expand(p)
	var names []string
	for _, n := range g.Nodes {
		if n.Kind == KindProfile {
			names = append(names, strings.TrimPrefix(n.Name, "nvme / ladder / "))
		}
	}
	want := []string{
		"read_pct=100, numjobs=1, iodepth=1", "read_pct=100, numjobs=1, iodepth=4", "read_pct=100, numjobs=4, iodepth=32",
		"read_pct=70, numjobs=1, iodepth=1", "read_pct=70, numjobs=1, iodepth=4", "read_pct=70, numjobs=4, iodepth=32",
	}
	if got := strings.Join(names, "|"); got != strings.Join(want, "|") {
		t.Errorf("points\n got %s\nwant %s", got, strings.Join(want, "|"))
	}
	n := g.Nodes[5]
	if n.Workload.ReadPct != 70 || n.Workload.NumJobs != 4 || n.Workload.IODepth != 32 {
		t.Errorf("%s: point not applied: %+v", n.Name, *n.Workload)
	}
	var axes []string
	for _, a := range p.Profiles[0].Sweep {
		axes = append(axes, a.Param+"="+fmtValues(a.Values))
	}
	if got := strings.Join(axes, " "); got != "read_pct=100,70 numjobs=1,4 iodepth=1,4,32" {
		t.Errorf("axes %s", got)
	}
}

// fmtValues prints sweep values for a comparison.
func fmtValues(v []any) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = workload.Param{Value: x}.ValueText()
	}
	return strings.Join(parts, ",")
}

func TestPauseHeadlineUnitsAndWriteCache(t *testing.T) {
	p := mustLoad(t, writeFile(t, t.TempDir(), "ladder.hcl", ladderPlan), nil)
	g := Expand(p)
	var pauses []time.Duration
	for _, n := range g.Nodes {
		if n.Kind == KindProfile {
			pauses = append(pauses, n.Pause)
			if want := 10*time.Second + n.Pause; n.Estimate != want {
				t.Errorf("%s: estimate %v, want %v", n.Name, n.Estimate, want)
			}
		}
	}
	if pauses[0] != 0 || pauses[1] != 5*time.Second || pauses[5] != 5*time.Second {
		t.Errorf("pauses %v: want none before the first step, 5s before each later one", pauses)
	}
	if got := g.Estimate(); got != 6*10*time.Second+5*5*time.Second {
		t.Errorf("graph estimate %v counts the pauses wrong", got)
	}
	if p.Profiles[0].Headline != "lat" || p.Report.Units != "MiB/s" {
		t.Errorf("headline %q, units %q", p.Profiles[0].Headline, p.Report.Units)
	}
	if wc := p.Drives[0].VolatileWriteCache; wc == nil || *wc {
		t.Errorf("volatile_write_cache = %v, want false", wc)
	}
	if got := strings.Join(p.Report.Formats, ","); got != "markdown,json,html" {
		t.Errorf("default formats %s", got)
	}
}

func TestPauseDoesNotChangeIDs(t *testing.T) {
	dir := t.TempDir()
	with := Expand(mustLoad(t, writeFile(t, dir, "a.hcl", ladderPlan), nil))
	without := Expand(mustLoad(t, writeFile(t, filepath.Join(dir), "b.hcl", strings.Replace(ladderPlan, `pause    = "5s"`, "", 1)), nil))
	for i := range with.Nodes[:6] {
		if with.Nodes[i].ID != without.Nodes[i].ID {
			t.Errorf("%s: a pause changed the step's ID", with.Nodes[i].Name)
		}
	}
}
