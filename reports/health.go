package reports

import (
	"maps"
	"slices"

	"github.com/drivebench/drivebench/results"
)

// DriveHealth is what an NVMe drive said about itself before and after
// the run, as the results folder records it (results.Health), with what
// the report adds: the sentences it prints and every note, the folder's
// and the report's own.
type DriveHealth struct {
	results.Health
	// Highlight is a few sentences on data written, temperature, errors
	// and warnings, as the Markdown report prints them.
	Highlight string `json:"highlight"`
	// Notes says what went wrong reading the drive or its document; []
	// when nothing did.
	Notes []string `json:"notes"`
}

// HealthReading is the results folder's own type: the report shows a
// reading as the folder records it.
type HealthReading = results.HealthReading

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
	d := DriveHealth{Health: *h, Notes: append([]string{}, h.Notes...)}
	d.Drive, d.Health.Notes = drive, nil
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
