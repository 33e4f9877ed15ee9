package nvmetest

import (
	"fmt"
	"maps"
	"slices"
)

// NvmeCliDiff compares every value nvme-cli printed (cli, its JSON
// decoded with numbers as written) with drivebench's (ours), recursively,
// strings with their padding, and returns each difference, a value
// drivebench lacks included, named by its path under path, and how many
// leaf values it compared.
func NvmeCliDiff(path string, cli, ours any) (diffs []string, compared int) {
	switch c := cli.(type) {
	case map[string]any:
		o, ok := ours.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: nvme-cli has an object, drivebench %v", path, ours)}, 0
		}
		for _, k := range slices.Sorted(maps.Keys(c)) {
			v, ok := o[k]
			if !ok {
				diffs = append(diffs, fmt.Sprintf("%s.%s: nvme-cli prints it, drivebench does not", path, k))
				continue
			}
			d, n := NvmeCliDiff(path+"."+k, c[k], v)
			diffs, compared = append(diffs, d...), compared+n
		}
		return diffs, compared
	case []any:
		o, ok := ours.([]any)
		if !ok || len(o) != len(c) {
			return []string{fmt.Sprintf("%s: nvme-cli has %d entries, drivebench %v", path, len(c), ours)}, 0
		}
		for i := range c {
			d, n := NvmeCliDiff(fmt.Sprintf("%s[%d]", path, i), c[i], o[i])
			diffs, compared = append(diffs, d...), compared+n
		}
		return diffs, compared
	}
	if cv, ov := fmt.Sprint(cli), fmt.Sprint(ours); cv != ov {
		diffs = append(diffs, fmt.Sprintf("%s: nvme-cli %q, drivebench %q", path, cv, ov))
	}
	return diffs, 1
}
