package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/drivebench/drivebench/workload"
)

// MixHCL writes m as a mix block of the plan language, in the canonical
// layout (drivebench fmt) and with the one-line distributions of
// docs/plan-language.md, after the comment lines given, which say where
// the mix comes from. Decoded, the block is m again: the writer of the
// mix syntax lives beside its decoder.
func MixHCL(m *Mix, comment []string) []byte {
	var b strings.Builder
	for _, line := range comment {
		b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
	}
	fmt.Fprintf(&b, "mix %s {\n", hclString(m.Name))
	if m.Description != "" {
		fmt.Fprintf(&b, "description = %s\n", hclString(m.Description))
	}
	fmt.Fprintf(&b, "read_pct = %d\nrandom_pct = %d\n", m.ReadPct, m.RandomPct)
	switch {
	case len(m.BSSplit) > 1:
		items := make([]string, len(m.BSSplit))
		for i, sw := range m.BSSplit {
			items[i] = hclString(workload.FormatSize(sw.Size)) + " = " + hclNumber(sw.Weight)
		}
		fmt.Fprintf(&b, "bs_split = { %s }\n", strings.Join(items, ", "))
	case len(m.BSSplit) == 1:
		fmt.Fprintf(&b, "bs = %s\n", hclString(workload.FormatSize(m.BSSplit[0].Size)))
	default:
		fmt.Fprintf(&b, "bs = %s\n", hclString(workload.FormatSize(m.BS)))
	}
	if len(m.Zones) > 0 {
		zones := make([]string, len(m.Zones))
		for i, z := range m.Zones {
			zones[i] = fmt.Sprintf("{ access_pct = %s, region_pct = %s }", hclNumber(z.AccessPct), hclNumber(z.RegionPct))
		}
		fmt.Fprintf(&b, "zones = [%s]\n", strings.Join(zones, ", "))
	}
	b.WriteString("}\n")
	return hclwrite.Format([]byte(b.String()))
}

// hclString writes s as an HCL string.
func hclString(s string) string { return string(hclwrite.TokensForValue(cty.StringVal(s)).Bytes()) }

func hclNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
