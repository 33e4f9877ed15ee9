package results

import "testing"

// TestTargetSameAs: a target is the same whatever its path, and another
// when any part of its identity differs.
func TestTargetSameAs(t *testing.T) {
	file := Target{Kind: "file", Path: "/a/d.img", Size: 8 << 20, Device: "8:1", Inode: 12, BornNs: 5}
	nvme := Target{Kind: "block", Path: "/dev/nvme0n1", Size: 1 << 30, Device: "259:0", Model: "M", Serial: "S1", WWID: "eui.1"}
	loop := Target{Kind: "block", Path: "/dev/loop4", Size: 1 << 28, Device: "7:4", BackingDevice: "254:0", BackingInode: 77}
	with := func(t Target, edit func(*Target)) Target { edit(&t); return t }
	tests := []struct {
		name string
		a, b Target
		same bool
	}{
		{"file by another path", file, with(file, func(t *Target) { t.Path = "/b/link.img" }), true},
		{"file replaced", file, with(file, func(t *Target) { t.Inode = 13 }), false},
		{"file recreated with the inode", file, with(file, func(t *Target) { t.BornNs = 6 }), false},
		{"file resized", file, with(file, func(t *Target) { t.Size = 4 << 20 }), false},
		{"device renumbered", nvme, with(nvme, func(t *Target) { t.Path, t.Device = "/dev/nvme1n1", "259:3" }), true},
		{"another drive", nvme, with(nvme, func(t *Target) { t.Serial = "S2" }), false},
		{"loop device by number", loop, with(loop, func(t *Target) { t.Path = "/dev/block/7:4" }), true},
		{"another loop device", loop, with(loop, func(t *Target) { t.Device = "7:5" }), false},
		{"loop device given another file", loop, with(loop, func(t *Target) { t.BackingInode = 78 }), false},
		{"file and device", file, nvme, false},
	}
	for _, tt := range tests {
		if got := tt.a.SameAs(tt.b); got != tt.same {
			t.Errorf("%s: SameAs = %v, want %v", tt.name, got, tt.same)
		}
	}
}
