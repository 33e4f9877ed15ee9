package reports

import (
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// TestDrivesAreNamed: a drive is named by its identity in the header,
// its section, the Conclusion and, beside another run's, in the ranking;
// a mismatch between the plan and the drive is said.
func TestDrivesAreNamed(t *testing.T) {
	run := func(drive results.Drive, iops float64) *Summary {
		m := sweepManifest()
		m.Drives = []results.Drive{drive}
		recs := []*results.Record{
			record("qd1", "ok", t0, &metrics.Result{Read: dir(iops, 90_000, 100_000)}),
			record("qd4", "ok", t0, &metrics.Result{Read: dir(2*iops, 95_000, 200_000)}),
		}
		return Build(m, recs)
	}
	device := results.Drive{Name: "d", Path: "/dev/sdx", Size: 960197124096,
		Facts:    map[string]string{"type": "block", "model": "SK hynix PE6011", "serial": "SN2", "size": "960197124096"},
		Declared: map[string]string{"serial": "SN1", "firmware": "A01"},
	}
	scratch := results.Drive{Name: "d", Scratch: true, Size: 1 << 28, Facts: map[string]string{"type": "file"},
		Declared: map[string]string{"model": "ACME X1", "serial": "AX1-002", "firmware": "1.1"}}
	s := run(device, 10_000)
	s.AddComparable("qsf-10", run(scratch, 20_000))
	_, md := renderSummary(t, s)
	for _, want := range []string{
		"- Drives: d (SK hynix PE6011, S/N SN2, FW A01)\n",
		"Identity: SK hynix PE6011, S/N SN2, FW A01, 960.20 GB (model, serial and capacity reported by the drive; firmware declared in the plan). " +
			"Mismatch: serial: the plan declares SN1, the drive reports SN2.\n",
		"| qsf-10 | sweep | — | d (ACME X1, S/N AX1-002, FW 1.1) | same testbed |",
		"| 1 | d (ACME X1, S/N AX1-002, FW 1.1; qsf-10) | iodepth=4 |",
		"| 2 | d (SK hynix PE6011, S/N SN2, FW A01) | iodepth=4 |",
		"| mix | d (SK hynix PE6011, S/N SN2, FW A01) | 20,000 IOPS | iodepth=4 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks\n%s\nin\n%s", want, md)
		}
	}
	id := s.Drives[0].Identity
	if id.Known.Serial != "SN2" || id.Declared.Serial != "SN1" || id.Detected.CapacityBytes != 960197124096 || len(id.Mismatches) != 1 {
		t.Errorf("report.json's identity: %+v", id)
	}
	for _, tt := range []struct {
		id   DriveIdentity
		want string
	}{
		{DriveIdentity{}, "Identity: none; the drive reported no model, serial or firmware, and the plan declares none."},
		{DriveIdentity{DeclaredBy: "import fio"}, "Identity: none; the drive reported no model, serial or firmware, and import fio declares none."},
		{DriveIdentity{Known: results.IdentityFields{Model: "M", Serial: "S"}, Declared: results.IdentityFields{Model: "M", Serial: "S"}},
			"Identity: M, S/N S (declared in the plan)."},
		{DriveIdentity{Known: results.IdentityFields{Model: "M", Serial: "S"}, Declared: results.IdentityFields{Model: "M", Serial: "S"}, DeclaredBy: "import fio -model, -serial"},
			"Identity: M, S/N S (declared with import fio -model, -serial)."},
		{DriveIdentity{Known: results.IdentityFields{Model: "M", Serial: "S"}, Detected: results.IdentityFields{Model: "M"}, Declared: results.IdentityFields{Serial: "S"}, DeclaredBy: "import fio -serial"},
			"Identity: M, S/N S (model reported by the drive; serial declared with import fio -serial)."},
	} {
		if got := identitySentence(Drive{Identity: tt.id}); got != tt.want {
			t.Errorf("identity %+v:\n got %q\nwant %q", tt.id, got, tt.want)
		}
	}
}
