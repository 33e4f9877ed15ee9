package fio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseRuns reads real fio outputs appended one after another: each
// run is one Output, a run's status reports fold into its last, and the
// text around the JSON is kept with the run it precedes.
func TestParseRuns(t *testing.T) {
	const note = "note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1"
	tests := []struct {
		file      string
		bs        []string
		snapshots []int
		lines     []int
		messages  [][]string
	}{
		{"psync-randread.json", []string{"4k"}, []int{0}, []int{1}, [][]string{nil}},
		{"note-before-json.json", []string{"4k"}, []int{0}, []int{2}, [][]string{{note}}},
		{"status-interval-sigint.json", []string{"4k"}, []int{2}, []int{1838}, [][]string{{"fio: terminating on signal 2"}}},
		{
			file: "appended-2runs.json", bs: []string{"4k", "16k"}, snapshots: []int{0, 0}, lines: []int{2, 276},
			messages: [][]string{{note}, {note, "fio: this line and the next were typed after the runs", "{ not a report"}},
		},
		{"appended-status.json", []string{"4k", "8k"}, []int{2, 2}, []int{547, 1366}, [][]string{nil, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			runs, err := ParseRuns(raw)
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != len(tt.bs) {
				t.Fatalf("%d runs, want %d", len(runs), len(tt.bs))
			}
			for i, o := range runs {
				line, _ := position(raw, o.Offset)
				if bs := o.Jobs[0].Options["bs"]; bs != tt.bs[i] || o.Snapshots != tt.snapshots[i] || line != tt.lines[i] {
					t.Errorf("run %d: bs %s, %d snapshots, line %d; want %s, %d, %d", i+1, bs, o.Snapshots, line, tt.bs[i], tt.snapshots[i], tt.lines[i])
				}
				if strings.Join(o.Messages, "\n") != strings.Join(tt.messages[i], "\n") {
					t.Errorf("run %d: messages %q, want %q", i+1, o.Messages, tt.messages[i])
				}
			}
			last, err := Parse(raw)
			if err != nil || last.Offset != runs[len(runs)-1].Offset {
				t.Errorf("Parse took the report at byte %d (%v), the last run's is at %d", last.Offset, err, runs[len(runs)-1].Offset)
			}
		})
	}
}

// TestParseRunsRefuses: what cannot be read is named by its place, never
// left out.
func TestParseRunsRefuses(t *testing.T) {
	appended, err := os.ReadFile(filepath.Join("testdata", "appended-2runs.json"))
	if err != nil {
		t.Fatal(err)
	}
	second := bytes.Index(appended, []byte("\n{\n")) + 1
	second = bytes.Index(appended[second+1:], []byte("\n{\n")) + second + 2
	damaged := bytes.Clone(appended)
	jobs := second + bytes.Index(appended[second:], []byte(`"jobs" : [`))
	damaged[jobs+1] = 'J'
	damaged[jobs+len(`"jobs" : [`)] = ';'
	nan := []byte(`{"fio version": "fio-3.33", "jobs": [{"jobname": "x", "read": {"clat_ns": {"stddev": -nan, "mean": nan, "max": inf}}}]}` + "\n")
	tests := []struct {
		name   string
		in     []byte
		offset int
		line   int
		column int
		cut    bool
		want   string
	}{
		{"a second report cut short", readTestdata(t, "appended-cut.json"), second, 276, 1, true,
			"a fio report starts here but the output ends inside it, 400 bytes later: it was cut short"},
		{"a status report cut short", readTestdata(t, "truncated.json"), 45871, 1838, 1, true, "a fio report starts here"},
		{"a report that is not JSON", damaged, jobs + len(`"jobs" : [`), 281, 13, false,
			"the fio report that starts at line 276 is not JSON here (invalid character ';'"},
		{"non-JSON numbers before a report cut short", append(bytes.Clone(nan), "{\n  \"fio version\" : \"fio-3.33\",\n"...), len(nan), 2, 1, true, "cut short"},
		{"a report that is not fio's", append(bytes.Clone(nan), `{"fio version": "fio-3.33", "jobs": [{"jobname": 7}]}`...), len(nan) + 49, 2, 50, false,
			"the fio report that starts at line 2 does not read as fio's (json: cannot unmarshal number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRuns(tt.in)
			var re *ReadError
			if !errors.As(err, &re) {
				t.Fatalf("error %v, want a ReadError", err)
			}
			if re.Offset != tt.offset || re.Line != tt.line || re.Column != tt.column || re.Cut != tt.cut || !strings.Contains(re.Problem, tt.want) {
				t.Errorf("%+v\nwant byte %d, line %d, column %d, cut %v, %q", re, tt.offset, tt.line, tt.column, tt.cut, tt.want)
			}
		})
	}
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// FuzzParseRuns: whatever the bytes, the reader returns runs or an error;
// a ReadError points inside the input, and each run it returns is the
// report Parse finds between that run's report and the next run's.
func FuzzParseRuns(f *testing.F) {
	for _, name := range []string{"appended-2runs.json", "appended-cut.json", "verify-error.json"} {
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte("x\n{\"fio version\": \"a\", \"jobs\": [{\"jobname\": \"j\", \"elapsed\": 9, \"job_runtime\": 5}]}\n{\"fio version\": \"a\", \"jobs\": [{\"jobname\": \"j\", \"read\": {\"clat_ns\": {\"mean\": -nan}}}]}\n{"))
	f.Fuzz(func(t *testing.T, in []byte) {
		runs, err := ParseRuns(in)
		var re *ReadError
		if errors.As(err, &re) && (re.Offset < 0 || re.Offset > len(in) || re.Line < 1 || re.Column < 1) {
			t.Fatalf("error at byte %d, line %d, column %d of %d bytes", re.Offset, re.Line, re.Column, len(in))
		}
		if err != nil {
			return
		}
		if len(runs) == 0 {
			t.Fatal("no run and no error")
		}
		for i, o := range runs {
			end := len(in)
			if i+1 < len(runs) {
				end = runs[i+1].Offset
			}
			if o.Offset >= end || in[o.Offset] != '{' {
				t.Fatalf("run %d at byte %d, the next at %d, in %d bytes", i+1, o.Offset, end, len(in))
			}
			one, err := Parse(in[o.Offset:end])
			if err != nil || one.Offset != 0 || len(one.Jobs) != len(o.Jobs) {
				t.Fatalf("run %d at byte %d: Parse of bytes %d to %d gives %v", i+1, o.Offset, o.Offset, end, err)
			}
		}
	})
}
