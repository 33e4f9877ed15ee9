package plan

import (
	"path/filepath"
	"testing"
	"time"
)

// TestReplayProfile loads the VDI replay example: each replay profile's
// workload holds its trace (absolute path, digest, detected format,
// whether its window writes, its span) and the profile's region and cap,
// and the plan's estimate of a step is the trace's span scaled by the
// speed.
func TestReplayProfile(t *testing.T) {
	for _, speed := range []string{"1", "10"} {
		p, _, diags := Load(filepath.Join(exampleDir, "vdi-replay", "vdi-replay.hcl"), LoadOptions{Vars: map[string]string{"speed": speed}, Engines: fixtureEngines})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		byName := map[string]*Profile{}
		for _, pr := range p.Profiles {
			byName[pr.Name] = pr
		}
		boot, login := byName["boot"].Workload, byName["login"].Workload
		r := boot.Replay
		if r == nil || !filepath.IsAbs(r.Path) || r.File != "traces/boot.iolog" || len(r.SHA256) != 64 || r.Format != "fio-iolog-v3" || !r.HasWrites {
			t.Fatalf("boot replay %+v", r)
		}
		if !login.Replay.HasWrites || !login.Writes() || !boot.Writes() {
			t.Errorf("login writes %v, boot writes %v: want both traces' writes replayed (the boot's 3 are ext4's)", login.Writes(), boot.Writes())
		}
		if boot.IODepth != 32 || boot.Size != 0 || !boot.Direct || boot.RW != "" {
			t.Errorf("boot workload %+v", boot)
		}
		span := 6000700*time.Microsecond - 0*time.Microsecond // the boot trace's last I/O and first
		if r.Span != span {
			t.Errorf("span %s, want %s", r.Span, span)
		}
		g := Expand(p)
		for _, n := range g.Nodes {
			if n.Source == "boot" && n.Kind == KindProfile {
				if want := map[string]time.Duration{"1": span, "10": span / 10}[speed]; n.Estimate != want {
					t.Errorf("speed %s: the boot step's estimate is %s, want %s", speed, n.Estimate, want)
				}
			}
		}
	}
}
