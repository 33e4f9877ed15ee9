package catalog

import (
	"slices"
	"testing"
	"time"
)

func TestParseFilter(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Filter
		err  bool
	}{
		{text: "model=KIOXIA*,plan=review", want: Filter{Model: "KIOXIA*", Plan: "review"}},
		{text: " serial=S1 , firmware=1.0", want: Filter{Serial: "S1", Firmware: "1.0"}},
		{text: "since=2026-03-01,until=2026-04-01T00:00:00Z", want: Filter{Since: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)}},
		{text: "", err: true},
		{text: "colour=red", err: true},
		{text: "model", err: true},
		{text: "model=", err: true},
		{text: "since=yesterday", err: true},
	} {
		got, err := ParseFilter(tc.text)
		if (err != nil) != tc.err || !tc.err && !got.Since.Equal(tc.want.Since) {
			t.Errorf("%q: %+v, %v", tc.text, got, err)
			continue
		}
		got.Since, got.Until, tc.want.Since, tc.want.Until = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if !tc.err && got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.text, got, tc.want)
		}
	}
}

func TestFilterPatternsEscapeLike(t *testing.T) {
	cond, args := Filter{Model: "A_B%*"}.where(1)
	if cond != `d.model LIKE $1 ESCAPE '\'` || args[0] != `A\_B\%%` {
		t.Errorf("%s %v", cond, args)
	}
}

func FuzzParseFilter(f *testing.F) {
	f.Add("model=KIOXIA*,plan=review,since=2026-03-01")
	f.Fuzz(func(t *testing.T, text string) {
		flt, err := ParseFilter(text)
		if err != nil {
			return
		}
		cond, args := flt.where(1)
		if cond == "" || len(args) > 7 {
			t.Fatalf("%q: condition %q with %d arguments", text, cond, len(args))
		}
	})
}

// TestPointSet: a point typed in any order, with sizes as a plan writes
// them, matches the point the catalog stored.
func TestPointSet(t *testing.T) {
	stored := pointSet("bs=4096,iodepth=32,numjobs=4")
	for _, typed := range []string{"numjobs=4 iodepth=32 bs=4KiB", "bs=4k,numjobs=4,iodepth=32", "iodepth=32, bs=4096, numjobs=4"} {
		if got := pointSet(typed); !slices.Equal(got, stored) {
			t.Errorf("pointSet(%q) = %q, want %q", typed, got, stored)
		}
	}
	if got := pointSet("bs=8KiB,iodepth=32,numjobs=4"); slices.Equal(got, stored) {
		t.Errorf("bs=8KiB matches bs=4096")
	}
}
