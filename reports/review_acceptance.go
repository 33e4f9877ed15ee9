package reports

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// docAcceptance sets each drive's spec sheet against what was measured,
// figure by figure, skipped figures included, with the reason for each
// verdict and the ways the conditions differ.
func docAcceptance(d *document, s *Summary) {
	if len(s.Acceptance) == 0 {
		return
	}
	d.heading(2, plain("Spec acceptance"))
	d.para(plain("Each figure of a drive's spec sheet against the measurement whose conditions come closest to the figure's. " +
		"A figure missed under other conditions than the spec's is a warning, not a failure: not like with like. " +
		"Figures drivebench cannot compare are listed as skipped, and so are figures no accept block judged, with why: not measured, or measured but not compared."))
	groups := acceptGroups(s.Acceptance)
	shown := map[string]bool{}
	for _, g := range groups {
		if !shown[g.drive] {
			d.heading(3, plain(orDash(g.drive)))
			shown[g.drive] = true
			identityText(d, s.drive(g.drive))
		}
		d.para(acceptGroupText(g)...)
		d.richTable(acceptanceColumns, acceptanceRows(g, s.unit()))
	}
}

var acceptanceColumns = []column{
	{title: "Spec"}, {title: "Metric"}, {"Claimed", true}, {title: "Measured"}, {"Ratio", true},
	{title: "Verdict"}, {title: "Reason and conditions"},
}

// acceptGroupText names the accept block and its tolerance, and counts
// its verdicts; the figures no block judged are counted as such.
func acceptGroupText(g acceptGroup) []span {
	if g.accept == "" {
		return spans("Not judged by an accept block: " + format.Counted(len(g.rows), "figure") + ".")
	}
	text := []span{plain("Accept block "), mono(orDash(g.accept))}
	if tol, ok := g.tolerance(); ok {
		text = append(text, plain(", tolerance "+format.Plain(tol)+"%"))
	}
	return append(text, plain(": "+g.tallyText()+"."))
}

func acceptanceRows(g acceptGroup, u bwUnit) [][][]span {
	var rows [][][]span
	for _, a := range g.rows {
		measured, ratio := format.Dash, format.Dash
		if a.Measured != nil {
			measured = acceptValue(a, *a.Measured, true, u)
			if a.Step != "" {
				measured += "\nat " + results.StepWithin(a.Step, a.Drive)
			}
		}
		if a.Ratio != nil {
			ratio = percentText(*a.Ratio * 100)
		}
		rows = append(rows, [][]span{
			spans(a.Spec), spans(a.Metric), spans(acceptValue(a, a.Claimed, false, u)), spans(measured), spans(ratio),
			{verdict(a.Verdict)}, spans(reasonText(a)),
		})
	}
	return rows
}

// reasonText is a row's reason, then each of its conditions on a line of
// its own.
func reasonText(a AcceptanceRow) string {
	lines := []string{fullStop(a.Reason)}
	for _, c := range a.Conditions {
		lines = append(lines, fmt.Sprintf("• %s", c))
	}
	return orDash(strings.TrimSpace(strings.Join(lines, "\n")))
}

// fullStop ends text with a full stop, unless it is empty or ends a
// sentence already.
func fullStop(text string) string {
	text = strings.TrimSpace(text)
	if text == "" || strings.HasSuffix(text, ".") || strings.HasSuffix(text, "!") || strings.HasSuffix(text, "?") {
		return text
	}
	return text + "."
}

// identityText sets the sheet's identity beside the drive's, and warns in
// plain words when the drive under test is a file or another model: the
// comparison then says how this target does against the sheet, not
// whether the sheet's drive meets it.
func identityText(d *document, dr *Drive) {
	if dr == nil || dr.SpecSheet == nil {
		return
	}
	sh := dr.SpecSheet
	sheet := strings.Join(nonEmpty(sh.Vendor, sh.Model, capacityText(sh.Capacity), sh.Interface), ", ")
	model := factValue(dr.Facts, "model")
	target := strings.Join(nonEmpty(model, format.Bytes(uint64(max(dr.SizeBytes, 0)))), ", ")
	d.para(plain("Held to spec sheet "), mono(sh.Name), plain(": "+cmpOr(sheet, "no identity given")+". Under test: "+cmpOr(target, "unknown")+" at "), mono(orDash(dr.Path)), plain("."))
	switch {
	case dr.Scratch || model == "":
		d.para(strong("Warning:"), plain(" the target is a file, not a "+cmpOr(strings.TrimSpace(sh.Vendor+" "+sh.Model), "drive of the sheet's model")+
			"; the figures compare how this file performs with the sheet, not whether the sheet's drive meets it."))
	case !namesSheet(model, sh):
		d.para(strong("Warning:"), plain(" the drive reports model "+model+", which names neither the sheet's vendor nor its model ("+
			strings.TrimSpace(sh.Vendor+" "+sh.Model)+"); the figures compare a different drive with the sheet."))
	}
}

// namesSheet reports whether a detected model names the sheet's vendor or
// model; drives report part numbers ("KIOXIA KCMYXRUG15T3"), not the
// sheet's marketing name (CM9-R), so the vendor is enough. A sheet without
// either matches any model.
func namesSheet(model string, sh *results.SpecSheet) bool {
	if sh.Vendor == "" && sh.Model == "" {
		return true
	}
	m := strings.ToLower(model)
	for _, name := range nonEmpty(sh.Vendor, sh.Model) {
		if strings.Contains(m, strings.ToLower(name)) {
			return true
		}
	}
	return false
}

// drive is the summary's drive of that name, nil when there is none.
func (s *Summary) drive(name string) *Drive {
	for i := range s.Drives {
		if s.Drives[i].Name == name {
			return &s.Drives[i]
		}
	}
	return nil
}

// factValue is a drive's fact, "" when it was not detected.
func factValue(facts []Fact, key string) string {
	for _, f := range facts {
		if f.Name == key {
			return f.Value
		}
	}
	return ""
}

// capacityText writes a sheet's capacity as vendors do, in decimal
// terabytes: "15.36 TB"; "" when the sheet covers every capacity.
func capacityText(bytes int64) string {
	if bytes <= 0 {
		return ""
	}
	return format.Bytes(uint64(bytes))
}

// nonEmpty keeps the strings that are not empty.
func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// cmpOr is s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
