package workload

import (
	"strings"
	"testing"
)

// TestParseFileService reads each file selection and refuses the rest,
// saying what to write.
func TestParseFileService(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want FileService
		err  string
	}{
		{"", FileService{Kind: "sequential"}, ""},
		{"roundrobin", FileService{Kind: "roundrobin"}, ""},
		{" random ", FileService{Kind: "random"}, ""},
		{"zipf:1.2", FileService{Kind: "zipf", Theta: 1.2}, ""},
		{"zipf", FileService{}, "zipf needs a skew above 0"},
		{"zipf:0", FileService{}, "zipf needs a skew above 0"},
		{"zipf:NaN", FileService{}, "zipf needs a skew above 0"},
		{"random:2", FileService{}, "only zipf takes a value"},
		{"pareto:0.5", FileService{}, "is not a file selection; use sequential, roundrobin, random, zipf:THETA"},
	} {
		got, err := ParseFileService(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%q: %+v, %v; want %+v", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%q: error %v, want one containing %q", tt.in, err, tt.err)
		}
	}
}

// FuzzParseFileService: any text gives a selection drivebench runs, with
// a skew above 0 for zipf, or an error; never a panic.
func FuzzParseFileService(f *testing.F) {
	for _, s := range []string{"", "sequential", "zipf:1.2", "zipf:", "random:1", "zipf:1e309"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fs, err := ParseFileService(s)
		if err != nil {
			return
		}
		switch fs.Kind {
		case "sequential", "roundrobin", "random":
		case "zipf":
			if !(fs.Theta > 0 && fs.Theta <= 100) {
				t.Errorf("%q: zipf with skew %g", s, fs.Theta)
			}
		default:
			t.Errorf("%q: kind %q", s, fs.Kind)
		}
	})
}

// TestFileSizeOf draws a distribution's sizes in their shares, and a
// fixed size always.
func TestFileSizeOf(t *testing.T) {
	w := Workload{FileSizes: []SizeWeight{{Size: 1, Weight: 25}, {Size: 2, Weight: 75}}}
	for _, tt := range []struct {
		pick float64
		want int64
	}{{0, 1}, {24.9, 1}, {25, 2}, {99.99, 2}} {
		if got := w.FileSizeOf(func() float64 { return tt.pick }); got != tt.want {
			t.Errorf("pick %g: size %d, want %d", tt.pick, got, tt.want)
		}
	}
	fixed := Workload{FileSize: 4096}
	if got := fixed.FileSizeOf(func() float64 { return 50 }); got != 4096 {
		t.Errorf("fixed size: %d", got)
	}
	if got := w.FileSetBytes(); got != 0 {
		t.Errorf("a set without files has %d bytes", got)
	}
}
