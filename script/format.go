package script

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Starlark's string formatting is Python's without the options: "%.2f" %
// x and "{:.2f}".format(x) fail when they run, which in a summary hook is
// after hours of measurement. formatProblems finds such literals when the
// file is compiled, so validate reports them, and fixed() gives the fixed
// decimals that reviews print.

// percentConversions are the conversions Starlark's % operator knows.
const percentConversions = "srdioxXeEfFgGc%"

// formatProblems lists the format strings of a parsed file that Starlark
// cannot run: a literal on the left of %, or a literal whose format method
// is called, with width, precision or flags.
func formatProblems(f *syntax.File) []error {
	var errs []error
	syntax.Walk(f, func(n syntax.Node) bool {
		switch e := n.(type) {
		case *syntax.BinaryExpr:
			if lit, ok := stringLiteral(e.X); ok && e.Op == syntax.PERCENT {
				if bad := badPercentSpec(lit.Value.(string)); bad != "" {
					errs = append(errs, formatError(lit, bad, "%"))
				}
			}
		case *syntax.CallExpr:
			if dot, ok := e.Fn.(*syntax.DotExpr); ok && dot.Name.Name == "format" {
				if lit, ok := stringLiteral(dot.X); ok {
					if bad := badBraceSpec(lit.Value.(string)); bad != "" {
						errs = append(errs, formatError(lit, bad, "format"))
					}
				}
			}
		}
		return true
	})
	return errs
}

// stringLiteral is e when it is a string literal.
func stringLiteral(e syntax.Expr) (*syntax.Literal, bool) {
	lit, ok := e.(*syntax.Literal)
	if !ok || lit.Token != syntax.STRING {
		return nil, false
	}
	return lit, true
}

// formatError explains an unsupported format at the literal.
func formatError(lit *syntax.Literal, spec, how string) error {
	return syntax.Error{Pos: lit.TokenPos, Msg: fmt.Sprintf(
		"format %q: Starlark's %s takes no width, precision or flags, so this fails when the hook runs; write fixed(x, 2) for \"%%.2f\", or %s",
		spec, how, map[string]string{"%": "plain %s, %d, %f or %g", "format": "a plain {} or {name}"}[how])}
}

// badPercentSpec returns the first conversion of a % format that Starlark
// refuses, or "".
func badPercentSpec(format string) string {
	for {
		i := strings.IndexByte(format, '%')
		if i < 0 || i == len(format)-1 {
			return ""
		}
		rest := format[i+1:]
		if rest[0] == '(' {
			j := strings.IndexByte(rest, ')')
			if j < 0 {
				return format[i:]
			}
			rest = rest[j+1:]
		}
		if rest == "" || !strings.ContainsRune(percentConversions, rune(rest[0])) {
			end := strings.IndexAny(rest, "sdioxXeEfFgGcr%")
			if end < 0 {
				end = len(rest) - 1
			}
			return format[i : len(format)-len(rest)+end+1]
		}
		format = rest[1:]
	}
}

// badBraceSpec returns the first replacement field of a format() string
// with a format spec ("{:.2f}"), which Starlark refuses, or "".
func badBraceSpec(format string) string {
	for i := 0; i < len(format); i++ {
		if format[i] != '{' {
			continue
		}
		if i+1 < len(format) && format[i+1] == '{' {
			i++
			continue
		}
		j := strings.IndexByte(format[i:], '}')
		if j < 0 {
			return ""
		}
		field := format[i : i+j+1]
		if strings.Contains(field, ":") {
			return field
		}
		i += j
	}
	return ""
}

// fixed is the predeclared fixed(x, decimals): x written with that many
// decimals, "3.14" for fixed(3.14159, 2), as reviews print their figures.
func fixed(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	decimals := 0
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &decimals); err != nil {
		return nil, err
	}
	f, err := numberArg(b, x)
	if err != nil {
		return nil, err
	}
	if decimals < 0 || decimals > 12 {
		return nil, fmt.Errorf("%s: %d decimals; give 0 to 12", b.Name(), decimals)
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return starlark.String(starlark.Float(f).String()), nil
	}
	return starlark.String(strconv.FormatFloat(f, 'f', decimals, 64)), nil
}
