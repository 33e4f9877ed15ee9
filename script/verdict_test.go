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

func TestCheckErrors(t *testing.T) {
	const help = `; a check must return verdict\(status, message\), a dict \{"status": ..., "message": ...\}, or a list of them, with status "pass", "fail" or "warn"$`
	tests := []struct {
		function string
		msg      string
	}{
		{"forgot_return", `^check forgot_return returned None \(a function without a return statement returns None\)` + help},
		{"returns_int", `^check returns_int returned a value of type int, 42` + help},
		{"bad_item", `^check bad_item returned a list whose item at index 1 is a value of type string, "b"` + help},
		{"dict_bad_status", `^check dict_bad_status returned a dict whose status "ok" is not "pass", "fail" or "warn"` + help},
		{"dict_without_message", `^check dict_without_message returned a dict without "message"` + help},
		{"dict_unknown_key", `^check dict_unknown_key returned a dict with the key "detail" \(only "status" and "message" are allowed\)` + help},
		{"verdict_bad_status", `^verdict: status "maybe" is not "pass", "fail" or "warn"$`},
		{"verdict_bad_message", `^verdict: for parameter message: got int, want string$`},
		{"calls_fail", `^fail: input has no points$`},
	}
	r := New("testdata", Limits{})
	for _, tt := range tests {
		t.Run(tt.function, func(t *testing.T) {
			_, _, err := r.Check(context.Background(), "checks.star", tt.function, nil)
			wantError(t, err, marked(t, "checks.star", tt.function), tt.msg)
		})
	}
}
