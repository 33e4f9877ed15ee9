package plan

import (
	"encoding/json"
	"regexp"
	"testing"
)

// percentPlan writes every kind of percentage a plan takes as a number.
const percentPlan = `
drive "scratch" {
  size     = "64MiB"
  writable = true
}

mix "skewed" {
  read_pct   = 70
  random_pct = 80
  bs         = "4KiB"
  zones      = [{ access_pct = 90, region_pct = 10 }, { access_pct = 10, region_pct = 90 }]
}

profile "steady" {
  rw      = "randrw"
  bs      = "4KiB"
  runtime = "1s"
  sweep {
    read_pct = [0, 70]
  }
  steady_state {
    metric        = "iops"
    window        = 2
    max_rounds    = 3
    excursion_pct = 20
    track         = { read_pct = 0 }
  }
}

profile "shaped" {
  rw           = "randwrite"
  bs           = "4KiB"
  runtime      = "1s"
  random_pct   = 75
  data         = "compressible"
  compress_pct = 50
}

profile "mixed" {
  mix     = "skewed"
  runtime = "1s"
}

profile "curve" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1s"
  rate_curve {
    percents = [50, 100]
  }
}
`

// TestPercentagesBothForms: every percentage may be written as a number
// (25) or a string ("25%"), as the documentation says, and both give the
// same steps.
func TestPercentagesBothForms(t *testing.T) {
	asStrings := regexp.MustCompile(`(_pct\s*=\s*)(\d+)`).ReplaceAllString(percentPlan, `$1"$2%"`)
	asStrings = regexp.MustCompile(`\[(\d+), (\d+)\]`).ReplaceAllString(asStrings, `["$1%", "$2%"]`)
	if asStrings == percentPlan {
		t.Fatal("the rewrite changed nothing")
	}
	graphs := map[string]string{}
	for name, src := range map[string]string{"numbers": percentPlan, "strings": asStrings} {
		p := mustLoad(t, writePlan(t, src), nil)
		data, err := json.Marshal(Expand(p).Nodes)
		if err != nil {
			t.Fatal(err)
		}
		graphs[name] = string(data)
	}
	if graphs["numbers"] != graphs["strings"] {
		t.Errorf("the plan with \"25%%\" strings gives other steps than with numbers:\n%s\n%s", graphs["numbers"], graphs["strings"])
	}
}
