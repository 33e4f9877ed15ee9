package reports

import (
	"maps"
	"slices"

	"github.com/drivebench/drivebench/results"
)

// DriveHealth is what an NVMe drive said about itself before and after
// the run: who it is, and its SMART/health log at both moments. The SMART
// log is the controller's, so its counters include whatever else used the
// drive in between.
type DriveHealth struct {
	Drive string `json:"drive"`
	// Path is the device the drive was read through.
	Path     string         `json:"path"`
	Identity *DriveIdentity `json:"identity,omitempty"`
	// Before and After are the two readings; After is absent when the run
	// has not ended or the drive could not be read after it.
	Before *HealthReading `json:"before,omitempty"`
	After  *HealthReading `json:"after,omitempty"`
	// Change is how the readings differ; absent without both.
	Change *HealthChange `json:"change,omitempty"`
	// EngineBytesWritten is what drivebench wrote to the drive between the
	// readings, to set beside the drive's own count.
	EngineBytesWritten uint64 `json:"engine_bytes_written"`
	// Highlight is a few sentences on data written, temperature, errors
	// and warnings, as the Markdown report prints them.
	Highlight string `json:"highlight"`
	// Notes says what went wrong reading the drive or its document.
	Notes []string `json:"notes"`
}

// DriveIdentity is the drive's NVMe identity as the results folder
// records it, under the name report.json gives it.
type DriveIdentity results.NVMeIdentity

// LBAFormat, HealthReading and HealthChange are the results folder's own
// types: the report shows health as the folder records it.
type (
	LBAFormat     = results.LBAFormat
	HealthReading = results.HealthReading
	HealthChange  = results.HealthChange
)

// SetHealth sets the drives' health from the results folder's
// health/<drive>.json (by drive name, as results.Folder.Health returns
// them): the run's drives first, in order, then any other by name.
func (s *Summary) SetHealth(docs map[string]*results.Health) {
	s.Health = []DriveHealth{}
	var names []string
	for _, d := range s.Drives {
		if _, ok := docs[d.Name]; ok && !slices.Contains(names, d.Name) {
			names = append(names, d.Name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		s.Health = append(s.Health, buildHealth(name, docs[name]))
	}
}

// buildHealth is one drive's health as the report shows it.
func buildHealth(drive string, h *results.Health) DriveHealth {
	d := DriveHealth{Drive: drive, Notes: append([]string{}, h.Notes...)}
	d.Path, d.Identity, d.EngineBytesWritten = h.Path, (*DriveIdentity)(h.Identity), h.EngineBytesWritten
	d.Before, d.After, d.Change = h.Before, h.After, h.Change
	for _, r := range []*HealthReading{d.Before, d.After} {
		if r != nil && r.CriticalWarnings == nil {
			r.CriticalWarnings = []string{}
		}
	}
	if d.Change != nil && d.Change.NewCriticalWarnings == nil {
		d.Change.NewCriticalWarnings = []string{}
	}
	d.Highlight = healthSentences(d)
	return d
}

// criticalWarnings says what each critical warning the nvme package names
// means, for people.
var criticalWarnings = []struct{ name, meaning string }{
	{"spare", "available spare below its threshold"},
	{"temperature", "temperature outside its thresholds"},
	{"reliability", "reliability degraded by media or internal errors"},
	{"read-only", "media placed in read-only mode"},
	{"volatile-backup", "volatile memory backup failed"},
	{"pmr-read-only", "persistent memory region read-only"},
}

// warningMeaning says what a named warning means.
func warningMeaning(name string) string {
	for _, w := range criticalWarnings {
		if w.name == name {
			return w.meaning
		}
	}
	return "warning " + name
}
