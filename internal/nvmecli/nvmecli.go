// Package nvmecli holds drivebench's decoding of NVMe pages to nvme-cli's:
// the tests of the decoders, of drivebench nvme decode and of the QEMU
// tier read nvme-cli's JSON for the same page and compare every value it
// prints with drivebench's. It is a leaf, so that the nvme package's own
// tests use it too.
package nvmecli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Diff compares every value nvme-cli printed (cli, its JSON
// decoded with numbers as written) with drivebench's (ours), recursively,
// strings with their padding, and returns each difference, a value
// drivebench lacks included, named by its path under path, and how many
// leaf values it compared.
func Diff(path string, cli, ours any) (diffs []string, compared int) {
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
			d, n := Diff(path+"."+k, c[k], v)
			diffs, compared = append(diffs, d...), compared+n
		}
		return diffs, compared
	case []any:
		o, ok := ours.([]any)
		if !ok || len(o) != len(c) {
			return []string{fmt.Sprintf("%s: nvme-cli has %d entries, drivebench %v", path, len(c), ours)}, 0
		}
		for i := range c {
			d, n := Diff(fmt.Sprintf("%s[%d]", path, i), c[i], o[i])
			diffs, compared = append(diffs, d...), compared+n
		}
		return diffs, compared
	}
	if cv, ov := fmt.Sprint(cli), fmt.Sprint(ours); cv != ov {
		diffs = append(diffs, fmt.Sprintf("%s: nvme-cli %q, drivebench %q", path, cv, ov))
	}
	return diffs, 1
}

// Decode parses a JSON object as nvme-cli prints it, numbers kept as
// written (json.Number), so that 64-bit counters compare exactly.
func Decode(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}
