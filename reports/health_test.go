package reports

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/nvme"
	"github.com/drivebench/drivebench/nvme/nvmetest"
	"github.com/drivebench/drivebench/results"
)

// driveHealthDoc is what the engine read from a drive around a run: the
// nvme package's snapshots, what drivebench wrote, and what went wrong.
type driveHealthDoc struct {
	Before, After      *nvme.HealthSnapshot
	EngineBytesWritten uint64
	Error              string
}

// record is the drive's health as the engine stores it.
func (d driveHealthDoc) record() *results.Health {
	return engine.HealthRecord("nvme0", d.Before, d.After, d.EngineBytesWritten, d.Error)
}

// qemuSnapshot is the snapshot of QEMU's emulated controller taken at
// at (nvme/testdata).
func qemuSnapshot(t testing.TB, at time.Time) *nvme.HealthSnapshot {
	t.Helper()
	s, err := nvmetest.QEMUSnapshot(filepath.Join("..", "nvme", "testdata"), at)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// healthSummary builds the Summary of one drive's health, as stored in
// and read back from health/nvme0.json.
func healthSummary(t *testing.T, doc driveHealthDoc) *Summary {
	t.Helper()
	data, err := json.Marshal(doc.record())
	if err != nil {
		t.Fatal(err)
	}
	var h results.Health
	if err := json.Unmarshal(data, &h); err != nil {
		t.Fatal(err)
	}
	return summaryOfHealth(&h)
}

func summaryOfHealth(h *results.Health) *Summary {
	s := Build(&results.Manifest{Plan: "health", Drives: []results.Drive{{Name: "nvme0", Path: "/dev/nvme0n1"}}}, nil)
	s.SetHealth(map[string]*results.Health{"nvme0": h})
	return s
}

func TestHealthFromNVMe(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	before := qemuSnapshot(t, t0)
	tests := []struct {
		name  string
		doc   func() driveHealthDoc
		check func(t *testing.T, h DriveHealth)
		lines []string
	}{
		{
			name: "quiet run",
			doc: func() driveHealthDoc {
				a := nvmetest.After(before, t0.Add(41*time.Minute), 0, 1_024_000_000, 0, 250_000)
				return driveHealthDoc{Before: before, After: a, EngineBytesWritten: 1_023_410_176}
			},
			check: func(t *testing.T, h DriveHealth) {
				c := h.Change
				if c.BytesWritten != 1_024_000_000 || *c.WrittenRatio < 1 || *c.TemperatureMinC != 50 || *c.TemperatureMaxC != 50 {
					t.Errorf("change = %+v", c)
				}
				id := h.Identity
				if id.Model != "QEMU NVMe Ctrl" || id.Serial != "deadbeef" || id.Firmware != "7.2.22" ||
					id.NamespaceBytes != 1<<30 || id.LBAFormat.DataBytes != 512 || id.LBAFormats != 8 || id.TotalCapacityBytes != nil {
					t.Errorf("identity = %+v", id)
				}
			},
			lines: []string{
				"| Data written | 0 units | 2,000 units | 1.02 GB (drivebench wrote 1.02 GB) |",
				"| Temperature | 50 °C | 50 °C | steady at 50 °C |",
				"Between the readings the drive counted 1.02 GB written (2,000 data units of 512,000 bytes), 1.00× the 1.02 GB drivebench wrote. " +
					"Its temperature was 50 °C at both readings. It added no media error, error-log entry or critical warning.",
				"|  |  | Model (NVMe) | QEMU NVMe Ctrl |",
				"|  |  | LBA format in use | 512 B data, no metadata (format 0 of 8, best performance) |",
				"|  |  | Total NVM capacity | not reported |",
				"|  |  | Temperature thresholds | warning 70 °C, critical 100 °C |",
			},
		},
		{
			name: "errors, warnings and heat",
			doc: func() driveHealthDoc {
				a := nvmetest.After(before, t0.Add(6*time.Hour), 0, 0, 0, 0)
				log := *a.SmartLog
				log.Temperature, log.CriticalWarning = 345, nvme.WarnTemperature|nvme.WarnReliability
				log.MediaErrors, log.NumErrLogEntries, log.PercentUsed = nvme.Uint128From(3), nvme.Uint128From(1), 2
				a.SmartLog = &log
				return driveHealthDoc{Before: before, After: a}
			},
			check: func(t *testing.T, h DriveHealth) {
				c := h.Change
				if c.MediaErrors != 3 || c.ErrorLogEntries != 1 || c.PercentUsed != 2 || c.WrittenRatio != nil ||
					!slices.Equal(c.NewCriticalWarnings, []string{"temperature", "reliability"}) {
					t.Errorf("change = %+v", c)
				}
			},
			lines: []string{
				"| Critical warnings | none | temperature, reliability | new: temperature, reliability |",
				"| Media errors | 0 | 3 | +3 |",
				"Neither the drive nor drivebench counted any data written between the readings. " +
					"Its temperature went from 50 °C to 72 °C, at or above its warning threshold of 70 °C. " +
					"It added 3 media errors, 1 error-log entry, a critical warning (temperature outside its thresholds) and " +
					"a critical warning (reliability degraded by media or internal errors). Its life-used estimate rose by 2 points.",
			},
		},
		{
			name: "something else wrote",
			doc: func() driveHealthDoc {
				a := nvmetest.After(before, t0.Add(time.Minute), 0, 512_001, 0, 2)
				return driveHealthDoc{Before: before, After: a}
			},
			lines: []string{"Between the readings the drive counted 1.02 MB written (2 data units of 512,000 bytes), though drivebench wrote nothing to it in that time. " +
				"Its temperature was 50 °C at both readings. It added no media error, error-log entry or critical warning."},
		},
		{
			name: "before only",
			doc: func() driveHealthDoc {
				return driveHealthDoc{Before: before, Error: "SMART after the run: open /dev/nvme0n1: permission denied"}
			},
			check: func(t *testing.T, h DriveHealth) {
				if h.After != nil || h.Change != nil || h.Identity == nil {
					t.Errorf("health = %+v", h)
				}
			},
			lines: []string{
				"The drive was read before the run only, so the report cannot say how it changed.",
				"Note: SMART after the run: open /dev/nvme0n1: permission denied",
				"| Time | 2026-03-02 10:00 UTC | — | — |",
			},
		},
		{
			name: "counters reset",
			doc: func() driveHealthDoc {
				a := nvmetest.After(before, t0.Add(time.Minute), 0, 0, 0, 0)
				log := *a.SmartLog
				log.DataUnitsRead = nvme.Uint128From(0)
				a.SmartLog = &log
				_, err := nvme.DiffSmart(before.SmartLog, a.SmartLog)
				return driveHealthDoc{Before: before, After: a, Error: err.Error()}
			},
			lines: []string{
				"The two readings cannot be compared.",
				"Note: nvme: SMART counter data_units_read went from 1 to 0; the logs are of different controllers or the counters were reset",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := healthSummary(t, tt.doc())
			s.Drives[0].Spec = []SpecEntry{{Name: "rand_read_4k", Values: map[string]float64{"iops": 1000}}}
			if len(s.Health) != 1 || s.Health[0].Drive != "nvme0" {
				t.Fatalf("health = %+v", s.Health)
			}
			if tt.check != nil {
				tt.check(t, s.Health[0])
			}
			_, md := renderSummary(t, s)
			checkLines(t, md, tt.lines...)
		})
	}
}

// TestHealthDocumentDamage: readings the engine cannot fully use, and a
// document this version cannot read: the report is still made, with a
// note.
func TestHealthDocumentDamage(t *testing.T) {
	snap := &nvme.HealthSnapshot{Path: "/dev/nvme0n1", SmartLog: &nvme.SmartLog{}}
	huge := *snap
	huge.SmartLog = &nvme.SmartLog{DataUnitsWritten: nvme.Uint128{Hi: 1}}
	doc := driveHealthDoc{Before: snap, After: &huge}
	h := summaryOfHealth(doc.record()).Health[0]
	if note := "moved by more than 2^64"; !slices.ContainsFunc(h.Notes, func(n string) bool { return strings.Contains(n, note) }) {
		t.Errorf("notes = %q, want one with %q", h.Notes, note)
	}
	for name, doc := range map[string]string{
		"not an object":     `[1, 2]`,
		"a counter's type":  `{"schema":"drivebench/health/v1","before":{"percent_used":"x"}}`,
		"an unknown schema": `{"schema":"drivebench/health/v9"}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "health"), 0o755)
			os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"schema":"`+results.ManifestSchema+`"}`), 0o644)
			os.WriteFile(filepath.Join(dir, "health", "nvme0.json"), []byte(doc), 0o644)
			os.MkdirAll(filepath.Join(dir, "steps"), 0o755)
			s, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "health/nvme0.json") {
				t.Errorf("notes = %q, want one naming health/nvme0.json", s.Notes)
			}
			renderSummary(t, s)
		})
	}
}

// TestHealthOrder lists the run's drives first, in plan order, then
// documents of drives the manifest does not list.
func TestHealthOrder(t *testing.T) {
	s := Build(&results.Manifest{Drives: []results.Drive{{Name: "b"}, {Name: "a"}}}, nil)
	s.SetHealth(map[string]*results.Health{"z": {}, "a": {}, "b": {}, "c": {}})
	var order []string
	for _, h := range s.Health {
		order = append(order, h.Drive)
	}
	if want := []string{"b", "a", "c", "z"}; !slices.Equal(order, want) {
		t.Errorf("order = %v, want %v", order, want)
	}
}

// TestWarningNamesMatchNVMe: the report words every critical warning
// the nvme package names, and names reserved bits by number.
func TestWarningNamesMatchNVMe(t *testing.T) {
	for bit := range nvme.CriticalWarningBits {
		for _, name := range nvme.CriticalWarning(1 << bit).Names() {
			if warningMeaning(name) == "warning "+name {
				t.Errorf("bit %d: the report has no words for %q", bit, name)
			}
		}
	}
	snap := &nvme.HealthSnapshot{SmartLog: &nvme.SmartLog{CriticalWarning: 0xc0}}
	doc := driveHealthDoc{Before: snap}
	if got := doc.record().Before.CriticalWarnings; !slices.Equal(got, []string{"bit 6", "bit 7"}) {
		t.Errorf("reserved bits = %v", got)
	}
}

// TestLoadReadsHealth reads the qemu fixture as the report command does.
func TestLoadReadsHealth(t *testing.T) {
	s := mustLoad(t, "qemu")
	if len(s.Health) != 1 || s.Health[0].Identity == nil || s.Health[0].Change == nil {
		t.Fatalf("health = %+v", s.Health)
	}
	if h := s.Health[0]; h.Change.BytesWritten < h.EngineBytesWritten || *h.Change.WrittenRatio > 1.001 {
		t.Errorf("the drive counted %d bytes written, drivebench %d", h.Change.BytesWritten, h.EngineBytesWritten)
	}
	dir := t.TempDir()
	for _, sub := range []string{"steps", "health"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	manifest, _ := os.ReadFile(filepath.Join("testdata", "qemu", "manifest.json"))
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "health", "nvme0.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatalf("a damaged health document stopped the report: %v", err)
	}
	if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "health/nvme0.json") {
		t.Errorf("notes = %q", s.Notes)
	}
}

// FuzzHealth feeds arbitrary health documents to the report: whatever a
// document holds, the report is made and report.json meets the schema.
func FuzzHealth(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "qemu", results.HealthDir, "nvme0.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"before":{"temperature_c":-273,"critical_warnings":["x"]},"after":{"percent_used":-1},"change":{"percent_used":-300,"written_ratio":-1}}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		var h results.Health
		if json.Unmarshal(doc, &h) != nil {
			return
		}
		renderSummary(t, summaryOfHealth(&h))
	})
}
