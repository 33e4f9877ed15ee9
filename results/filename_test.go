package results

import "testing"

func TestSlug(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"4K Random/Read", "4k-random-read"},
		{"nvme0 / 64k-seq-read / iodepth=1 / round 2/3", "nvme0-64k-seq-read-iodepth-1-round-2-3"},
		{"cd6 / 64k-random-read / iodepth=32, numjobs=16", "cd6-64k-random-read-iodepth-32-numjobs-16"},
		{"??", "x"},
	} {
		if got := Slug(tt.name); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
