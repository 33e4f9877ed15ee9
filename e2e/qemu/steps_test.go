package qemu

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// formatSteps writes steps as the guest's /init does.
func formatSteps(steps ...guestStep) string {
	var b strings.Builder
	for _, s := range steps {
		fmt.Fprintf(&b, "%s%s %d\r\n%s%s%s\r\n%s%s%s\r\n", markBegin, s.name, s.rc, s.stdout, markStderr, s.name, s.stderr, markEnd, s.name)
	}
	return b.String()
}

func TestParseSteps(t *testing.T) {
	info := guestStep{name: "info", rc: 0, stdout: "{\n  \"sn\": \"x\"\n}\n"}
	purge := guestStep{name: "purge", rc: 2, stderr: "purge: no\n"}
	text := "console noise\n" + formatSteps(info, purge)
	steps, err := parseSteps(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*guestStep{"info": &info, "purge": &purge}
	if !reflect.DeepEqual(steps, want) {
		t.Errorf("steps %+v, want %+v", steps, want)
	}
}

func TestParseStepsErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"cut short", "=== BEGIN run 0\nhalf", `step "run" has no end`},
		{"no exit status", "=== BEGIN run\n", "not \"=== BEGIN \" followed by a step name and an exit status"},
		{"nested", "=== BEGIN a 0\n=== BEGIN b 0\n", `line 2: step "b 0" begins inside step "a"`},
		{"wrong end", "=== BEGIN a 0\n=== STDERR a\n=== END b\n", `marker for step "b" inside step "a"`},
		{"end before stderr", "=== BEGIN a 0\n=== END a\n", "out of order"},
		{"stray end", "=== END a\n", "outside any step"},
	}
	for _, tt := range tests {
		_, err := parseSteps(strings.NewReader(tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func FuzzParseSteps(f *testing.F) {
	f.Add(formatSteps(guestStep{name: "a", rc: 1, stdout: "x\n", stderr: "y\n"}))
	f.Add("=== BEGIN a 0\n=== STDERR a\n")
	f.Add("=== BEGIN  \n=== END \n")
	f.Fuzz(func(t *testing.T, text string) {
		steps, err := parseSteps(strings.NewReader(text))
		for name, s := range steps {
			if name != s.name || name == "" {
				t.Fatalf("step %q stored as %q", s.name, name)
			}
		}
		if err == nil && strings.Count(text, markEnd) < len(steps) {
			t.Fatalf("%d steps from %d end markers", len(steps), strings.Count(text, markEnd))
		}
	})
}
