package catalog

import (
	"fmt"
	"strings"
	"time"
)

// Filter selects runs and drives. Empty fields match everything; Model,
// Firmware, Serial, Plan and Testbed match exactly, or as a pattern when
// they hold a * (any run of characters). Since and Until bound the run's
// creation time (Until is exclusive).
type Filter struct {
	Model, Firmware, Serial, Plan, Testbed string
	Since, Until                           time.Time
}

// where is the filter as an SQL condition on the aliases r (runs), rd
// (run_drives) and d (drives), with its arguments numbered from $first.
func (f Filter) where(first int) (string, []any) {
	return f.whereOn(first, "d.model", "rd.firmware", "d.serial")
}

// onRuns says whether the filter needs the runs table.
func (f Filter) onRuns() bool {
	return f.Plan != "" || f.Testbed != "" || !f.Since.IsZero() || !f.Until.IsZero()
}

// whereOn is where with the model, firmware and serial read from the
// columns named.
func (f Filter) whereOn(first int, model, firmware, serial string) (string, []any) {
	var conds []string
	var args []any
	add := func(col, v string) {
		if v == "" {
			return
		}
		op := "="
		if strings.Contains(v, "*") {
			op = "LIKE"
			v = strings.NewReplacer("%", `\%`, "_", `\_`, "*", "%").Replace(v)
		}
		args = append(args, v)
		cond := fmt.Sprintf("%s %s $%d", col, op, first+len(args)-1)
		if op == "LIKE" {
			cond += ` ESCAPE '\'`
		}
		conds = append(conds, cond)
	}
	add(model, f.Model)
	add(firmware, f.Firmware)
	add(serial, f.Serial)
	add("r.plan", f.Plan)
	add("r.testbed", f.Testbed)
	if !f.Since.IsZero() {
		args = append(args, timeText(f.Since))
		conds = append(conds, fmt.Sprintf("r.created >= $%d", first+len(args)-1))
	}
	if !f.Until.IsZero() {
		args = append(args, timeText(f.Until))
		conds = append(conds, fmt.Sprintf("r.created < $%d", first+len(args)-1))
	}
	if len(conds) == 0 {
		return "1 = 1", nil
	}
	return strings.Join(conds, " AND "), args
}

// ParseDate reads a date filter: 2026-03-01, or a full RFC 3339 time.
func ParseDate(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date: write 2026-03-01 or 2026-03-01T12:00:00Z", s)
	}
	return t, nil
}

// runDrives is the join every listing starts from: one row per drive of a
// run.
const runDrives = `runs r JOIN run_drives rd ON rd.run_id = r.run_id JOIN drives d ON d.drive_id = rd.drive_id`

// ComparablePrefix marks a report comparable named by a catalog filter
// rather than by folder: "catalog:model=KIOXIA*,plan=review".
const ComparablePrefix = "catalog:"

// ParseFilter reads a filter written as comma-separated key=value pairs,
// the keys model, firmware, serial, plan, testbed, since and until.
func ParseFilter(text string) (Filter, error) {
	var f Filter
	if strings.TrimSpace(text) == "" {
		return f, fmt.Errorf("empty catalog filter: write key=value pairs such as model=KIOXIA*,plan=review")
	}
	for _, pair := range strings.Split(text, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok || v == "" {
			return f, fmt.Errorf("catalog filter %q: %q is not key=value", text, pair)
		}
		var err error
		switch k {
		case "model":
			f.Model = v
		case "firmware":
			f.Firmware = v
		case "serial":
			f.Serial = v
		case "plan":
			f.Plan = v
		case "testbed":
			f.Testbed = v
		case "since":
			f.Since, err = ParseDate(v)
		case "until":
			f.Until, err = ParseDate(v)
		default:
			return f, fmt.Errorf("catalog filter %q: unknown key %q: use model, firmware, serial, plan, testbed, since or until", text, k)
		}
		if err != nil {
			return f, fmt.Errorf("catalog filter %q: %w", text, err)
		}
	}
	return f, nil
}
