// Package reporttruth checks that a report says what its figures are: every
// number in the sentences of report.md (the highlights under the tables,
// the notes on noise and rounds, the warnings, the steady-state,
// acceptance and health sentences, the Conclusion, the counts of the
// header, and what it restates of the plan and the drives) is recomputed from
// report.json and the step records of the results folder, by a table of
// sentence kinds (kinds.go), and a sentence that says another figure is a
// falsehood. A sentence with a number that no kind knows is one too: a new
// sentence needs its rule before it can be trusted. Only the sections a
// plan's summary hook writes are left alone: their words are the plan's. It is for tests only:
// the golden reports (reports/truth_test.go) and the reports of runs of
// the example plans (cmd/drivebench) are checked with it.
//
// Table cells are not its concern: the golden tests and the tests of
// Build hold each row to its record. The sentences restate those rows,
// and aggregate them (the peak, the lightest load, a series' first and
// last tenth, a spread over rounds or intervals, a ranking), and that is
// where a report has said what its tables did not hold.
package reporttruth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/internal/golden"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// Report is a report and what its sentences are checked against.
type Report struct {
	// Markdown is report.md.
	Markdown string
	// Summary is report.json.
	Summary *reports.Summary
	// Manifest is the results folder's manifest: the steps of the plan.
	Manifest *results.Manifest
	// Records are the step records of the results folder, by step ID.
	Records map[string]*results.Record
}

// Load reads report.md and report.json from reportDir and the step
// records from the results folder runDir (the same folder for a run;
// apart for a golden report made from a fixture folder).
func Load(reportDir, runDir string) (*Report, error) {
	md, err := os.ReadFile(filepath.Join(reportDir, "report.md"))
	if err != nil {
		return nil, err
	}
	raw, err := readReportJSON(reportDir)
	if err != nil {
		return nil, err
	}
	var s reports.Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(reportDir, "report.json"), err)
	}
	f, err := results.Open(runDir)
	if err != nil {
		return nil, err
	}
	recs, err := f.Records()
	if err != nil {
		return nil, err
	}
	r := &Report{Markdown: string(md), Summary: &s, Manifest: f.Manifest, Records: map[string]*results.Record{}}
	for _, rec := range recs {
		r.Records[rec.StepID] = rec
	}
	return r, nil
}

// readReportJSON reads report.json from dir or, for a golden report,
// joins the parts report.json.d/ holds it as.
func readReportJSON(dir string) ([]byte, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if !errors.Is(err, fs.ErrNotExist) {
		return raw, err
	}
	return golden.JoinJSON(dir, "report")
}

// Falsehood is a sentence that does not say what the report's figures
// are, or a sentence with numbers that no kind knows.
type Falsehood struct {
	// Where is the section the sentence is in: "Results › 4k-random-read
	// on nvme0".
	Where    string
	Sentence string
	// Kind is the kind of sentence that matched it; empty when none did.
	Kind    string
	Problem string
}

func (f Falsehood) String() string {
	kind := f.Kind
	if kind == "" {
		kind = "no kind"
	}
	return fmt.Sprintf("%s: %q (%s): %s", f.Where, f.Sentence, kind, f.Problem)
}

// Check reads every sentence of the report's prose and returns those
// that are false or that no kind knows; nil when every one is true.
func Check(r *Report) []Falsehood {
	var out []Falsehood
	for _, u := range proseUnits(r.Markdown) {
		if exempt(r.Summary, u) {
			continue
		}
		sc := newScope(r, u)
		out = append(out, checkUnit(sc, u)...)
	}
	return append(out, checkTables(r)...)
}

// checkUnit checks a paragraph or list item: whole, when a unit kind
// knows it (a warning, a thermal note), or sentence by sentence.
func checkUnit(sc *scope, u unit) []Falsehood {
	if f, ok := matchKinds(sc, u, unitKinds, u.text); ok {
		return f
	}
	var out []Falsehood
	for _, s := range sentences(u.text) {
		if f, ok := matchKinds(sc, u, sentenceKinds, s); ok {
			out = append(out, f...)
			continue
		}
		if hasNumber(sc, s) {
			out = append(out, Falsehood{Where: u.where(), Sentence: s, Problem: "no kind of sentence knows it: add its rule to the table of kinds"})
		}
	}
	return out
}

// matchKinds tries the kinds in order on text; ok is false when none
// matches it.
func matchKinds(sc *scope, u unit, kinds []kind, text string) ([]Falsehood, bool) {
	for _, k := range kinds {
		if k.in != anywhere && k.in != u.h2 {
			continue
		}
		m := k.pattern.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		groups := map[string]string{}
		for i, name := range k.pattern.SubexpNames() {
			if _, seen := groups[name]; name != "" && (m[i] != "" || !seen) {
				groups[name] = m[i]
			}
		}
		var out []Falsehood
		for _, p := range k.check(sc, groups) {
			out = append(out, Falsehood{Where: u.where(), Sentence: text, Kind: k.name, Problem: p})
		}
		return out, true
	}
	return nil, false
}

// unit is a paragraph or a list item of report.md, with the headings it
// is under.
type unit struct {
	h2, h3, h4 string
	text       string
	// late is set after the Conclusion's heading.
	late bool
}

func (u unit) where() string {
	parts := slices.DeleteFunc([]string{u.h2, u.h3, u.h4}, func(s string) bool { return s == "" })
	if len(parts) == 0 {
		return "header"
	}
	return strings.Join(parts, " › ")
}

// proseUnits are the paragraphs and list items of a Markdown report, its
// tables, charts and code blocks left out.
func proseUnits(md string) []unit {
	var out []unit
	var cur unit
	code := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			code = !code
		case code, line == "", strings.HasPrefix(line, "|"), strings.HasPrefix(line, "!["):
		case strings.HasPrefix(line, "#"):
			cur = heading(cur, line)
		default:
			u := cur
			u.text = strings.TrimPrefix(line, "- ")
			out = append(out, u)
		}
	}
	return out
}

// heading places what follows a heading line under it.
func heading(cur unit, line string) unit {
	level := len(line) - len(strings.TrimLeft(line, "#"))
	title := strings.TrimSpace(line[level:])
	switch level {
	case 1:
		return unit{}
	case 2:
		return unit{h2: title, late: cur.late || cur.h2 == "Conclusion"}
	case 3:
		cur.h3, cur.h4 = title, ""
	default:
		cur.h4 = title
	}
	return cur
}

// sentenceEnd ends a sentence: a full stop and a space. A number's
// decimal point has no space after it.
var sentenceEnd = regexp.MustCompile(`\. `)

// sentences splits a paragraph into its sentences, each with its full
// stop.
func sentences(text string) []string {
	var out []string
	for {
		loc := sentenceEnd.FindStringIndex(text)
		if loc == nil {
			break
		}
		out = append(out, text[:loc[0]+1])
		text = text[loc[1]:]
	}
	if text != "" {
		out = append(out, text)
	}
	return out
}

// exempt reports whether a unit is in a section a plan's summary hook
// wrote, after the report's own Conclusion: the plan's words, whose
// figures are the hook's.
func exempt(s *reports.Summary, u unit) bool {
	if h := s.SummaryHook; h != nil && u.late {
		for _, sec := range h.Sections {
			if sec.Title == u.h2 || sec.Title == "" && u.h2 == "Summary" {
				return true
			}
		}
	}
	return false
}

// number finds a figure in a sentence.
var number = regexp.MustCompile(`\d`)

// figureNames are words with digits that name a figure rather than state
// one (p99, p99.999), and code spans, which quote the plan.
var figureNames = regexp.MustCompile("\\bp\\d+(\\.\\d+)?\\b|10\\^6|`[^`]*`")

// hasNumber reports whether a sentence states a number once the names in
// it (of drives, profiles, points, runs, steps and figures) are left out.
func hasNumber(sc *scope, s string) bool {
	s = figureNames.ReplaceAllString(s, "")
	for _, name := range sc.names() {
		s = strings.ReplaceAll(s, name, "")
	}
	return number.MatchString(s)
}
