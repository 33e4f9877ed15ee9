package plan

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/drivebench/drivebench/workload"
)

// TestMixHCLLoads writes mixes with MixHCL into a plan and loads it: the
// plan's mix is the one written, and the text is in drivebench fmt's
// layout.
func TestMixHCLLoads(t *testing.T) {
	tests := []*Mix{
		{Name: "boot", Description: "from boot.iolog", ReadPct: 85, RandomPct: 62,
			BSSplit: []workload.SizeWeight{{Size: 4096, Weight: 35}, {Size: 16384, Weight: 10}, {Size: 65536, Weight: 55}},
			Zones:   []workload.Zone{{AccessPct: 70, RegionPct: 12}, {AccessPct: 30, RegionPct: 88}}},
		{Name: "one-size", ReadPct: 0, RandomPct: 0, BSSplit: []workload.SizeWeight{{Size: 1536, Weight: 100}}},
	}
	for _, m := range tests {
		t.Run(m.Name, func(t *testing.T) {
			text := MixHCL(m, []string{"made from a trace", ""})
			if !strings.HasPrefix(string(text), "# made from a trace\n#\nmix \""+m.Name+"\" {\n") || !bytes.Equal(text, hclwrite.Format(text)) {
				t.Errorf("text is not a formatted block after its comment:\n%s", text)
			}
			src := string(text) + "\ndrive \"scratch\" {\n  size     = \"256MiB\"\n  writable = true\n}\n\nprofile \"p\" {\n  mix     = \"" + m.Name + "\"\n  runtime = 5\n}\n"
			p := mustLoad(t, writePlan(t, src), nil)
			got := p.Mixes[len(p.Mixes)-1]
			want := *m
			want.BS = workload.DefaultBS
			if len(want.BSSplit) == 1 {
				want.BS, want.BSSplit = want.BSSplit[0].Size, nil
			}
			want.RW, want.Range = mixMode(m.ReadPct, m.RandomPct), got.Range
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("loaded %+v\nwant %+v\nfrom\n%s", *got, want, text)
			}
		})
	}
}
