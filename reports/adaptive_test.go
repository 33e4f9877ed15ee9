package reports

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/results"
)

// qosSearch loads the latency-qos run and returns its adaptive step's
// record with the rest.
func qosSearch(t *testing.T) (*results.Manifest, []*results.Record, *results.Record) {
	t.Helper()
	m, recs := loadRun(t, filepath.Join("testdata", "latency-qos"))
	for _, r := range recs {
		if r.Kind == kindAdaptive {
			return m, recs, r
		}
	}
	t.Fatal("the latency-qos run has no adaptive step")
	return nil, nil, nil
}

func rowIDs(t *testing.T, s *Summary, profile string) []string {
	t.Helper()
	for _, tbl := range s.Results {
		if tbl.Profile == profile {
			var ids []string
			for _, r := range tbl.Rows {
				ids = append(ids, r.StepID)
			}
			return ids
		}
	}
	t.Fatalf("no table of %s", profile)
	return nil
}

// TestAdaptiveSearch checks that the points of a search are the rows of
// its profile's table in the order it measured them, that they count as
// steps of the run, and that the highlight says where and why it
// stopped.
func TestAdaptiveSearch(t *testing.T) {
	m, recs, search := qosSearch(t)
	s := Build(m, recs)
	if got := rowIDs(t, s, "qos-search"); !slices.Equal(got, search.Points) {
		t.Errorf("rows = %v, want the search's points %v", got, search.Points)
	}
	if c := s.Counts.Steps; c.Unlisted != 0 || c.Total != len(m.Steps)-1+len(search.Points) {
		t.Errorf("step counts = %+v: the points are steps of the run", c)
	}
	tbl := s.Results[0]
	want := Search{StepID: search.StepID, Status: "ok", Points: 10, Last: "iodepth=31", Stop: "next_point returned None after 10 points"}
	if tbl.Search == nil || *tbl.Search != want {
		t.Fatalf("search = %+v, want %+v", tbl.Search, want)
	}
	sentence := "The search measured 10 points, in the order listed, and stopped after iodepth=31: next_point returned None after 10 points."
	if !strings.Contains(tbl.Highlight, sentence) {
		t.Errorf("highlight %q lacks %q", tbl.Highlight, sentence)
	}
}

// TestSearchWithoutItsRecord checks a search stopped before it wrote its
// record: its points are found by their parent, in the order they ran.
func TestSearchWithoutItsRecord(t *testing.T) {
	m, recs, search := qosSearch(t)
	points := search.Points
	recs = slices.DeleteFunc(slices.Clone(recs), func(r *results.Record) bool { return r == search })
	slices.Reverse(recs)
	s := Build(m, recs)
	if got := rowIDs(t, s, "qos-search"); !slices.Equal(got, points) {
		t.Errorf("rows = %v, want %v", got, points)
	}
	if sr := s.Results[0].Search; sr == nil || sr.Status != StatusNotRun || sr.Points != len(points) {
		t.Errorf("search = %+v", sr)
	}
}

func TestSearchSentence(t *testing.T) {
	tests := []struct {
		search Search
		want   string
	}{
		{Search{Status: "ok", Points: 3, Last: "iodepth=4", Stop: "next_point asked again for iodepth=4, measured already: the search has converged"},
			"The search measured 3 points, in the order listed, and stopped after iodepth=4: next_point asked again for iodepth=4, measured already: the search has converged."},
		{Search{Status: "ok", Points: 0, Stop: "next_point returned None after 0 points"},
			"The search measured no point: next_point returned None after 0 points."},
		{Search{Status: "failed", Points: 2, Last: "iodepth=2", Stop: "qos.star:9:5: division by zero"},
			"The search measured 2 points, in the order listed, and failed after iodepth=2: qos.star:9:5: division by zero."},
		{Search{Status: "failed", Stop: "next_point asked for a point that cannot run: iodepth 0 is below 1."},
			"The search failed before its first point: next_point asked for a point that cannot run: iodepth 0 is below 1."},
		{Search{Status: "interrupted", Points: 1, Last: "iodepth=1", Stop: "interrupted: context canceled"},
			"The search measured 1 point, in the order listed, and was interrupted after iodepth=1."},
		{Search{Status: StatusNotRun}, "The search has not run."},
	}
	for _, tt := range tests {
		if got := searchSentence(&tt.search); got != tt.want {
			t.Errorf("searchSentence(%+v)\n got %q\nwant %q", tt.search, got, tt.want)
		}
	}
	if searchSentence(nil) != "" {
		t.Error("a table without a search has a search sentence")
	}
}
