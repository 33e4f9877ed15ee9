package script

import (
	"context"
	"reflect"
	"testing"

	"github.com/drivebench/drivebench/results"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		function string
		input    any
		want     []Verdict
	}{
		{"all_pass", Struct{"name": "iodepth=1"}, []Verdict{{results.VerdictPass, "iodepth=1 is fine"}}},
		{"over_limit", Struct{"value": 3, "limit": 5}, []Verdict{{results.VerdictPass, "3 <= 5"}}},
		{"over_limit", Struct{"value": 7, "limit": 5}, []Verdict{{results.VerdictFail, "7 > 5"}}},
		{"several", nil, []Verdict{{results.VerdictPass, "first"}, {results.VerdictWarn, "second"}, {results.VerdictFail, "third"}}},
		{"as_tuple", nil, []Verdict{{results.VerdictPass, "only"}}},
		{"nothing_to_judge", nil, []Verdict{}},
		{"reads_attributes", nil, []Verdict{{results.VerdictWarn, "noisy run"}}},
	}
	r := New("testdata", Limits{})
	for _, tt := range tests {
		t.Run(tt.function, func(t *testing.T) {
			got, _, err := r.Check(context.Background(), "checks.star", tt.function, tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
