package plan

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/drivebench/drivebench/format"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// A plan is read before anything else happens, by everyone who uses a
// shared plan repository, so reading one must never exhaust the machine.
// These limits bound it, each far beyond what a real plan needs; a plan
// past one gets a diagnostic at the place that went past it:
//
//   - MaxNesting bounds how deeply brackets, braces, parentheses, blocks
//     and template interpolations nest. It is checked on the tokens, before
//     the parser (which recurses once per level) sees the text.
//   - maxValueSize bounds the size of any value a function takes or makes
//     (elements plus string bytes, a repeated part counted each time), and
//     setproduct's result is bounded before it is built.
//   - maxEvaluation bounds the work of all the plan's for expressions and
//     string templates together: each element a for expression visits
//     (weighed by the size of its body) and each byte a template part adds
//     counts against it, so nested for
//     expressions over range(1000) or a template that repeats a long local
//     stop at the limit instead of running the machine out of memory.
const (
	MaxNesting     = 256
	maxValueSize   = 1_000_000
	maxEvaluation  = 200_000
	maxFormatWidth = 10_000
)

// limitError is a breach of an evaluation limit, as a function's error.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

// checkNesting reports the first place where src nests deeper than
// MaxNesting, scanning its tokens without parsing.
func checkNesting(src []byte, filename string) hcl.Diagnostics {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	return nestingOf(tokens)
}

// nestingOf is checkNesting on tokens.
func nestingOf(tokens hclsyntax.Tokens) hcl.Diagnostics {
	depth := 0
	for _, t := range tokens {
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen,
			hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			depth++
			if depth > MaxNesting {
				return nestingDiag(t.Range)
			}
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
			hclsyntax.TokenTemplateSeqEnd:
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// checkJSONNesting is checkNesting for a JSON file.
func checkJSONNesting(src []byte, filename string) hcl.Diagnostics {
	depth, inString, escaped := 0, false, false
	pos := hcl.Pos{Line: 1, Column: 1}
	for i, c := range src {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			if depth > MaxNesting {
				end := hcl.Pos{Line: pos.Line, Column: pos.Column + 1, Byte: i + 1}
				return nestingDiag(hcl.Range{Filename: filename, Start: pos, End: end})
			}
		case c == ']' || c == '}':
			depth = max(depth-1, 0)
		}
		pos.Byte = i + 1
		if c == '\n' {
			pos.Line, pos.Column = pos.Line+1, 1
		} else if c&0xC0 != 0x80 {
			pos.Column++
		}
	}
	return nil
}

func nestingDiag(rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Nesting Too Deep",
		Detail: fmt.Sprintf("Brackets, braces, parentheses, blocks and ${...} nest more than %d levels deep here; "+
			"the file is not read further. Flatten the expression: name its parts as local values.", MaxNesting),
		Subject: &rng,
	}}
}

// parseConfig parses a plan file's native syntax after checking its
// tokens: its nesting, so that a hostile file cannot overflow the parser's
// stack, and the unterminated comments and heredocs the parser would
// report in the wrong place.
func parseConfig(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if diags := append(nestingOf(tokens), unterminated(tokens)...); diags.HasErrors() {
		return &hcl.File{Body: hcl.EmptyBody(), Bytes: src}, diags
	}
	return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
}

// ParseConfig is the parser of plan files for other tools (drivebench fmt):
// hclsyntax.ParseConfig behind the nesting check.
func ParseConfig(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	return parseConfig(src, filename)
}

// valueSize is v's size, counting each element and each string byte,
// stopping once it passes limit.
func valueSize(v cty.Value, limit int) int {
	if !v.IsKnown() || v.IsNull() {
		return 1
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return 1 + len(v.AsString())
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType() || ty.IsObjectType():
		n := 1
		for it := v.ElementIterator(); it.Next() && n <= limit; {
			_, e := it.Element()
			n += valueSize(e, limit-n)
		}
		return n
	}
	return 1
}

// limitFunctions wraps each function so that the values it takes and
// makes stay within maxValueSize (setproduct's checked before it is built,
// format's field widths within maxFormatWidth) and its results count
// against the budget. Once the budget is spent, calls return unknown
// values at once: the breach has been reported where it happened.
func (b *evalBudget) limitFunctions(funcs map[string]function.Function) map[string]function.Function {
	for name, f := range funcs {
		funcs[name] = b.limitFunction(name, f)
	}
	return funcs
}

func (b *evalBudget) limitFunction(name string, f function.Function) function.Function {
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		Type:        func(args []cty.Value) (cty.Type, error) { return f.ReturnTypeForValues(args) },
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if b.spent() {
				return cty.UnknownVal(retType), nil
			}
			if err := checkArgs(name, args); err != nil {
				return cty.NilVal, err
			}
			v, err := f.Call(args)
			if err != nil {
				return v, err
			}
			size := valueSize(v, maxValueSize)
			if size > maxValueSize {
				return cty.NilVal, &limitError{fmt.Sprintf("calling %s here would make a value of more than %d elements and bytes, "+
					"the most a plan value may hold", name, maxValueSize)}
			}
			return v, b.charge(size, "the plan's function calls would make more than %d elements and bytes in all, "+
				"the most a plan's evaluation may take")
		},
	})
}

// formatWidth finds the widths and precisions of a format string's verbs.
var formatWidth = regexp.MustCompile(`%[-+# 0]*(\d+)?(?:\.(\d+))?`)

// checkArgs refuses a call whose arguments are too large, or whose result
// would be.
func checkArgs(name string, args []cty.Value) error {
	total := 0
	for _, a := range args {
		total += valueSize(a, maxValueSize)
		if total > maxValueSize {
			return &limitError{fmt.Sprintf("the arguments of %s hold more than %d elements and bytes, "+
				"the most a plan value may hold", name, maxValueSize)}
		}
	}
	switch name {
	case "setproduct":
		product := 1
		for _, a := range args {
			if !a.IsKnown() || a.IsNull() || !a.CanIterateElements() {
				return nil
			}
			product *= max(a.LengthInt(), 1)
			if product > maxValueSize {
				return &limitError{fmt.Sprintf("calling setproduct here would make more than %d combinations, "+
					"the most a plan value may hold; sweep fewer values", maxValueSize)}
			}
		}
	case "format", "formatlist":
		if len(args) > 0 && args[0].IsKnown() && !args[0].IsNull() && args[0].Type() == cty.String {
			for _, m := range formatWidth.FindAllStringSubmatch(args[0].AsString(), -1) {
				for _, n := range m[1:] {
					if w, err := strconv.Atoi(n); n != "" && (err != nil || w > maxFormatWidth) {
						return &limitError{fmt.Sprintf("calling %s with a field width or precision of %s would make a string of more than %d characters", name, n, maxFormatWidth)}
					}
				}
			}
		}
	}
	return nil
}

// Names of the functions that account for evaluation; no plan can call
// them, as they are not identifiers.
const (
	forFunction      = "for expression"
	templateFunction = "string template"
)

// evalBudget counts the evaluation work of one plan load.
type evalBudget struct {
	used     int
	breached bool
}

// spent says whether the budget has run out.
func (b *evalBudget) spent() bool { return b.breached }

// charge counts n units of what; the first charge past the budget is an
// error.
func (b *evalBudget) charge(n int, what string) error {
	b.used += n
	if b.used <= maxEvaluation || b.breached {
		return nil
	}
	b.breached = true
	return &limitError{fmt.Sprintf(what, maxEvaluation)}
}

// functions are the accounting functions the loader's expressions call.
func (b *evalBudget) functions() map[string]function.Function {
	return map[string]function.Function{
		forFunction: b.account("the plan's for expressions would evaluate more than %d elements in all " +
			"(each element counted once for each part of the body), the most a plan's evaluation may take; " +
			"look for nested for expressions over large collections"),
		templateFunction: b.account("the plan's string templates would make more than %d bytes in all, " +
			"the most a plan's evaluation may take; look for a template that repeats a long value"),
	}
}

// account passes its first argument through, charging its size (elements
// or bytes) times its second, the weight; once the budget is spent it
// passes an unknown value, on which a for expression does not iterate.
func (b *evalBudget) account(what string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true},
			{Name: "weight", Type: cty.Number},
		},
		Type: func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if b.spent() {
				return cty.UnknownVal(retType), nil
			}
			v, _ := args[0].Unmark()
			n := 0
			if v.IsKnown() && !v.IsNull() {
				if v.CanIterateElements() {
					n = v.LengthInt()
				} else if v.Type() == cty.String {
					n = len(v.AsString())
				}
			}
			weight, _ := args[1].AsBigFloat().Int64()
			if n > 0 && weight > int64(maxEvaluation/n) {
				weight = int64(maxEvaluation/n) + 1 // past the budget either way
			}
			if err := b.charge(n*int(weight), what); err != nil {
				return cty.NilVal, err
			}
			return args[0], nil
		},
	})
}

// accountEvaluation rewrites a parsed file so that each for expression's
// collection and each template part passes through the budget's functions.
func accountEvaluation(file *hcl.File) {
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		return
	}
	hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
		switch x := n.(type) {
		case *hclsyntax.ForExpr:
			// Each element it visits costs what evaluating its body once
			// does, charged before it iterates, so that a for over many
			// elements with a large body stops before it starts.
			x.CollExpr = accounted(forFunction, x.CollExpr, nodes(x.KeyExpr)+nodes(x.ValExpr)+nodes(x.CondExpr))
		case *hclsyntax.BinaryOpExpr:
			switch x.Op {
			case hclsyntax.OpDivide:
				x.Op = checkedDivide
			case hclsyntax.OpModulo:
				x.Op = checkedModulo
			}
		case *hclsyntax.TemplateExpr:
			if len(x.Parts) > 1 { // a template of one part is a plain string or a plain ${value}
				for i, p := range x.Parts {
					if _, literal := p.(*hclsyntax.LiteralValueExpr); !literal {
						x.Parts[i] = accounted(templateFunction, p, 1)
					}
				}
			}
		}
		return nil
	})
}

// checkedDivide and checkedModulo are HCL's / and %, refusing a zero
// divisor: HCL's own make 4 / 0 infinite and 5 % 0 five.
var (
	checkedDivide = &hclsyntax.Operation{Impl: refuseZeroDivisor("/", hclsyntax.OpDivide.Impl), Type: cty.Number}
	checkedModulo = &hclsyntax.Operation{Impl: refuseZeroDivisor("%", hclsyntax.OpModulo.Impl), Type: cty.Number}
)

func refuseZeroDivisor(op string, f function.Function) function.Function {
	return function.New(&function.Spec{
		Params: f.Params(),
		Type:   function.StaticReturnType(cty.Number),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if args[1].Equals(cty.Zero).True() {
				return cty.NilVal, function.NewArgErrorf(1, "the right side of %s is zero; dividing by zero has no value", op)
			}
			return f.Call(args)
		},
	})
}

// accounted wraps e in a call of the accounting function name with the
// weight of each of its elements, positioned on e so that a breach points
// at it.
func accounted(name string, e hclsyntax.Expression, weight int) hclsyntax.Expression {
	rng := e.Range()
	w := &hclsyntax.LiteralValueExpr{Val: cty.NumberIntVal(int64(weight)), SrcRange: rng}
	return &hclsyntax.FunctionCallExpr{Name: name, Args: []hclsyntax.Expression{e, w},
		NameRange: rng, OpenParenRange: rng, CloseParenRange: rng}
}

// nodes counts the syntax nodes of e (0 for none): the work of
// evaluating it once, as the budget reckons it.
func nodes(e hclsyntax.Expression) int {
	if e == nil {
		return 0
	}
	n := 0
	hclsyntax.VisitAll(e, func(hclsyntax.Node) hcl.Diagnostics {
		n++
		return nil
	})
	return n
}

// limitDiagnostics gives a breach of an evaluation limit its own summary
// and detail instead of the generic "Error in function call".
func limitDiagnostics(diags hcl.Diagnostics) {
	for _, d := range diags {
		extra, ok := d.Extra.(hclsyntax.FunctionCallDiagExtra)
		if !ok {
			continue
		}
		var le *limitError
		if errors.As(extra.FunctionCallError(), &le) {
			d.Summary = "Plan Evaluation Limit"
			d.Detail = format.UpperFirst(le.msg) + "."
		}
	}
}
