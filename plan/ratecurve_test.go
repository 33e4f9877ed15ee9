package plan

import (
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/workload"
)

// TestRateCurveMaximumWarmsUp checks that a curve's uncontrolled point
// runs after a ramp as long as the profile's ramp and one step, or the
// max_ramp and max_runtime the plan sets, while its rate points keep the
// profile's.
func TestRateCurveMaximumWarmsUp(t *testing.T) {
	tests := []struct {
		name                  string
		curve                 string
		wantRamp, wantMeasure time.Duration
	}{
		{"defaults", ``, 12 * time.Second, 10 * time.Second},
		{"max_ramp", `max_ramp = "30s"`, 30 * time.Second, 10 * time.Second},
		{"max_runtime", `max_runtime = "1m"`, 12 * time.Second, time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `
drive "scratch" {
  size     = "64MiB"
  writable = true
}
profile "curve" {
  rw      = "randread"
  runtime = "10s"
  ramp    = "2s"
  rate_curve {
    percents = [50, 100]
    ` + tt.curve + `
  }
}
`
			p, _, diags := Load(writeFile(t, t.TempDir(), "plan.hcl", src), LoadOptions{})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			var seen int
			for _, n := range Expand(p).Nodes {
				if n.Workload == nil {
					continue
				}
				seen++
				ramp, runtime := 2*time.Second, 10*time.Second
				if strings.HasSuffix(n.Name, " / max") {
					ramp, runtime = tt.wantRamp, tt.wantMeasure
					if n.Estimate != ramp+runtime {
						t.Errorf("%s: estimate %v, want %v", n.Name, n.Estimate, ramp+runtime)
					}
				}
				if n.Workload.Ramp != ramp || n.Workload.Runtime != runtime {
					t.Errorf("%s: ramp %v, runtime %v; want %v and %v", n.Name, n.Workload.Ramp, n.Workload.Runtime, ramp, runtime)
				}
			}
			if seen != 3 {
				t.Errorf("%d steps, want the maximum and two rates", seen)
			}
		})
	}
}

func TestRateCurveMaximumOfAByteBudget(t *testing.T) {
	c := &RateCurve{MaxRamp: time.Minute}
	w := workload.Workload{Bytes: 1 << 30}
	if got := c.MaxWorkload(w); got.Ramp != 0 || got.Runtime != 0 || got.Bytes != w.Bytes {
		t.Errorf("a run bounded by bytes got ramp %v, runtime %v, %d bytes; want it unchanged", got.Ramp, got.Runtime, got.Bytes)
	}
}
