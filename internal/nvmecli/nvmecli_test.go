package nvmecli

import (
	"slices"
	"testing"
)

// TestDiff checks that every kind of difference from nvme-cli's
// JSON is named by its path, and that only leaf values are counted.
func TestDiff(t *testing.T) {
	cli := map[string]any{"sn": "QEMU  ", "lbafs": []any{map[string]any{"ds": "9"}, map[string]any{"ds": "12"}}, "vid": "6966"}
	tests := []struct {
		name     string
		ours     any
		diffs    []string
		compared int
	}{
		{"same", map[string]any{"sn": "QEMU  ", "lbafs": []any{map[string]any{"ds": "9"}, map[string]any{"ds": "12"}}, "vid": "6966", "extra": 1}, nil, 4},
		{"padding", map[string]any{"sn": "QEMU", "lbafs": []any{map[string]any{"ds": "9"}, map[string]any{"ds": "12"}}, "vid": "6966"},
			[]string{`id.sn: nvme-cli "QEMU  ", drivebench "QEMU"`}, 4},
		{"missing and short", map[string]any{"sn": "QEMU  ", "lbafs": []any{map[string]any{"ds": "9"}}},
			[]string{"id.lbafs: nvme-cli has 2 entries, drivebench [map[ds:9]]", "id.vid: nvme-cli prints it, drivebench does not"}, 1},
		{"not an object", "x", []string{"id: nvme-cli has an object, drivebench x"}, 0},
	}
	for _, tt := range tests {
		diffs, n := Diff("id", cli, tt.ours)
		if !slices.Equal(diffs, tt.diffs) || n != tt.compared {
			t.Errorf("%s: %q, %d compared; want %q, %d", tt.name, diffs, n, tt.diffs, tt.compared)
		}
	}
}
