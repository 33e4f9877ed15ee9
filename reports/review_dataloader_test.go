package reports

import (
	"testing"

	"github.com/drivebench/drivebench/workload"
)

// TestDataloaderDataset: the data set cell counts its files and samples
// as the table's other counts do, a count of one singular ("7 files × 1
// sample", "1 file × 1,251 samples"), as MLPerf's unet3d and resnet50
// shapes scaled down give them.
func TestDataloaderDataset(t *testing.T) {
	cases := []struct {
		name       string
		files, per int
		size       int64
		direct     bool
		want       string
	}{
		{"unet3d", 7, 1, 146600628, true, "7 files × 1 sample × 139.81MiB, O_DIRECT"},
		{"resnet50", 1, 1251, 114660, true, "1 file × 1,251 samples × 114.66KB, O_DIRECT"},
		{"cosmoflow", 263, 1, 2828486, false, "263 files × 1 sample × 2.7MiB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			row := dataloaderRow(&Summary{}, DataloaderRun{Name: tc.name, Files: tc.files, SamplesPerFile: tc.per, RecordSize: tc.size, Direct: tc.direct})
			if got := row[3][0].text; got != tc.want {
				t.Errorf("data set %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFileSetRegion: the Methodology's region of a file set counts its
// files as the report's other counts do: "a set of 1 file", where
// resnet50's one file of samples was "a set of 1 files".
func TestFileSetRegion(t *testing.T) {
	for files, want := range map[int]string{
		1:    "a set of 1 file in a folder of the drive",
		8:    "a set of 8 files in a folder of the drive",
		1024: "a set of 1,024 files in a folder of the drive",
	} {
		if got := regionText(&workload.Workload{Files: files}); got != want {
			t.Errorf("%d files: %q, want %q", files, got, want)
		}
	}
}
