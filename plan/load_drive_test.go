package plan

import (
	"strings"
	"testing"
)

// TestLoadDrive: a drive file is one drive block, decoded as a plan's,
// with the spec sheets it names; anything else is a diagnostic at its
// place.
func TestLoadDrive(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		problems   []string
	}{
		{"a drive and its sheet", `spec_sheet "x1" {
  model    = "ACME X1"
  capacity = "1.92TB"
  spec {
    rand_read_4k = { iops = 100000, rw = "randread", bs = "4KiB", iodepth = 32 }
  }
}
drive "x1" {
  model      = "ACME X1"
  serial     = "AX1-001"
  spec_sheet = "x1"
}
`, nil},
		{"no drive", `spec_sheet "x1" { model = "ACME X1" }`, []string{"No Drive Block"}},
		{"two drives", "drive \"a\" { serial = \"1\" }\ndrive \"b\" { serial = \"2\" }\n", []string{"drive.hcl:2,1-10: More Than One Drive"}},
		{"a mistyped attribute", "drive \"a\" {\n  seral = \"1\"\n}\n", []string{"drive.hcl:2,3-8: Unsupported argument; An argument named \"seral\" is not expected here. Did you mean \"serial\"?"}},
		{"a block a drive file does not hold", "profile \"p\" {}\ndrive \"a\" {}\n", []string{"drive.hcl:1,1-8: Unsupported block type"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "drive.hcl", tt.text)
			d, _, diags := LoadDrive(path)
			var got []string
			for _, dg := range diags.Errs() {
				got = append(got, dg.Error())
			}
			if len(got) != len(tt.problems) {
				t.Fatalf("problems %q, want %q", got, tt.problems)
			}
			for i, want := range tt.problems {
				if !strings.Contains(got[i], want) {
					t.Errorf("problem %q, want %q", got[i], want)
				}
			}
			if tt.problems == nil && (d.Declared["serial"] != "AX1-001" || d.SpecSheet == nil || d.SpecSheet.Capacity != 1_920_000_000_000 || len(d.Spec) != 1) {
				t.Errorf("drive %+v, sheet %+v", d, d.SpecSheet)
			}
		})
	}
}
