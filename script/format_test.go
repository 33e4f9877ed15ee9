package script

import (
	"context"
	"testing"

	"go.starlark.net/starlark"
)

// evalExpr evaluates one expression with the hooks' predeclared names.
func evalExpr(src string) (any, error) {
	v, err := starlark.EvalOptions(fileOptions, &starlark.Thread{}, "expr", src, predeclared)
	if err != nil {
		return nil, err
	}
	return fromStarlark(v)
}

func TestBadFormatSpecs(t *testing.T) {
	tests := []struct{ format, percent, brace string }{
		{"%s at QD%d", "", ""},
		{"%(name)s %%", "", ""},
		{"100%", "", ""},
		{"%.2f MB/s", "%.2f", ""},
		{"%5d", "%5d", ""},
		{"%-10s|", "%-10s", ""},
		{"%(iops).1f", "%(iops).1f", ""},
		{"{} and {name}", "", ""},
		{"{{literal}} {:.2f}", "", "{:.2f}"},
		{"{x:>8}", "", "{x:>8}"},
	}
	for _, tt := range tests {
		if got := badPercentSpec(tt.format); got != tt.percent {
			t.Errorf("badPercentSpec(%q) = %q, want %q", tt.format, got, tt.percent)
		}
		if got := badBraceSpec(tt.format); got != tt.brace {
			t.Errorf("badBraceSpec(%q) = %q, want %q", tt.format, got, tt.brace)
		}
	}
}

// TestUnsupportedFormatIsFoundAtLoad: "%.2f" is refused when the file is
// loaded, as validate loads it, at its place, not when the line runs.
func TestUnsupportedFormatIsFoundAtLoad(t *testing.T) {
	r := New("testdata", Limits{})
	err := r.HasFunction("format/precision.star", "line")
	if err == nil {
		t.Fatal("a file with an unsupported format string loaded")
	}
	wantError(t, err, marked(t, "format/precision.star", "brace"), `Starlark's format takes no width.*fixed\(x, 2\)`)
}

func TestFixed(t *testing.T) {
	r := New("testdata", Limits{})
	got, _, err := r.Call(context.Background(), "format/fixed.star", "line", 1234.567)
	if err != nil || got != "1234.6 MB/s at QD32" {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, src := range []string{`fixed("x", 2)`, `fixed(1.5, -1)`} {
		if _, err := evalExpr(src); err == nil {
			t.Errorf("%s: no error", src)
		}
	}
	if v, err := evalExpr(`fixed(2, 0) + fixed(0.126, 2) + fixed(float("inf"), 1)`); err != nil || v != "20.13+inf" {
		t.Errorf("got %v, %v", v, err)
	}
}
