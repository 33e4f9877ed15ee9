package reports

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/figure"
)

// TestFiguresFollowTheRegistry: report.json's figures of a row are those
// the figure registry names for it (figure.Report), under the same names,
// and compare judges every one of them that -threshold names.
func TestFiguresFollowTheRegistry(t *testing.T) {
	var tags []string
	ft := reflect.TypeFor[Figures]()
	for i := range ft.NumField() {
		tag, _, _ := strings.Cut(ft.Field(i).Tag.Get("json"), ",")
		if tag != "ios" && tag != "tail" {
			tags = append(tags, tag)
		}
	}
	keys := figure.Keys(figure.Report)
	if !slices.Equal(tags, keys) {
		t.Errorf("Figures holds %q; the figure registry's report.json names are %q", tags, keys)
	}
	for _, f := range figure.In(figure.Report) {
		if f.In&figure.Option != 0 && !slices.Contains(comparedFigures, f) {
			t.Errorf("compare does not judge %s, which report rows hold and -threshold names", f.Name)
		}
	}
}

// TestSeriesFollowsTheRegistry: the figures of report.json's series
// intervals are named as the figure registry names them in an interval
// series (figure.Interval), as a record's series names them.
func TestSeriesFollowsTheRegistry(t *testing.T) {
	keys := figure.Keys(figure.Interval)
	ft := reflect.TypeFor[SeriesSample]()
	for i := range ft.NumField() {
		tag, _, _ := strings.Cut(ft.Field(i).Tag.Get("json"), ",")
		if !slices.Contains([]string{"t", "iops", "bytes_written"}, tag) && !slices.Contains(keys, tag) {
			t.Errorf("SeriesSample holds %q, which is no name of the figure registry's interval series %q", tag, keys)
		}
	}
}
