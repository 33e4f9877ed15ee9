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

func TestFixed(t *testing.T) {
	r := New("testdata", Limits{})
	got, _, err := r.Call(context.Background(), "format/fixed.star", "line", 1234.567)
	if err != nil || got != "1234.6 MB/s at QD32" {
		t.Fatalf("got %v, %v", got, err)
	}
	if v, err := evalExpr(`fixed(2, 0) + fixed(0.126, 2) + fixed(float("inf"), 1)`); err != nil || v != "20.13+inf" {
		t.Errorf("got %v, %v", v, err)
	}
}
