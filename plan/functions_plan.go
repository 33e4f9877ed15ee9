package plan

import (
	"math/big"

	"github.com/drivebench/drivebench/workload"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// maxGeneratedValues bounds the lists range_pct and pow2 produce, as the
// standard range does.
const maxGeneratedValues = 1024

// unitFunctions are kib(4) = 4096 and the like: a number of units as a
// number of bytes, or of seconds for minutes and hours.
func unitFunctions() map[string]function.Function {
	units := map[string]int64{
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	}
	funcs := map[string]function.Function{}
	for name, mult := range units {
		funcs[name] = multiplyFunc(mult, true)
	}
	funcs["minutes"] = multiplyFunc(60, false)
	funcs["hours"] = multiplyFunc(3600, false)
	return funcs
}

// multiplyFunc multiplies its argument by mult; whole is true for sizes,
// which must come out as whole bytes.
func multiplyFunc(mult int64, whole bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "n", Type: cty.Number}},
		Type:   function.StaticReturnType(cty.Number),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			n := new(big.Float).Mul(args[0].AsBigFloat(), new(big.Float).SetInt64(mult))
			if whole && !n.IsInt() {
				return cty.NilVal, function.NewArgErrorf(0, "%s units is not a whole number of bytes", args[0].AsBigFloat().Text('g', 10))
			}
			if n.Sign() < 0 {
				return cty.NilVal, function.NewArgErrorf(0, "a size or duration cannot be negative")
			}
			return cty.NumberVal(n), nil
		},
	})
}

// parseSizeFunc is parse_size("1.92TB") = 1920000000000.
var parseSizeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "size", Type: cty.String}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		n, err := workload.ParseSize(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "%s. %s", err, workload.SizeUnitsHelp)
		}
		return cty.NumberIntVal(n), nil
	},
})

// formatSizeFunc is format_size(4096) = "4KiB".
var formatSizeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "bytes", Type: cty.Number}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		n, acc := args[0].AsBigFloat().Int64()
		if acc != big.Exact {
			return cty.NilVal, function.NewArgErrorf(0, "a size is a whole number of bytes")
		}
		return cty.StringVal(workload.FormatSize(n)), nil
	},
})

// parseDurationFunc is parse_duration("1h30m") = 5400, in seconds.
var parseDurationFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "duration", Type: cty.String}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		d, err := workload.ParseDuration(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "%s. %s", err, workload.DurationUnitsHelp)
		}
		return cty.NumberFloatVal(d.Seconds()), nil
	},
})

// rangePctFunc is range_pct(10, 120, 10) = [10, 20, ..., 120]: like range,
// but the end is included, as the points of a rate curve are written.
var rangePctFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "start", Type: cty.Number},
		{Name: "end", Type: cty.Number},
		{Name: "step", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.List(cty.Number)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		start, end, step := ratOf(args[0]), ratOf(args[1]), ratOf(args[2])
		switch {
		case step.Sign() <= 0:
			return cty.NilVal, function.NewArgErrorf(2, "the step must be more than zero")
		case start.Cmp(end) > 0:
			return cty.NilVal, function.NewArgErrorf(1, "the end must not be below the start")
		}
		var vals []cty.Value
		for x := new(big.Rat).Set(start); x.Cmp(end) <= 0; x.Add(x, step) {
			if len(vals) == maxGeneratedValues {
				return cty.NilVal, function.NewArgErrorf(2, "more than %d values; use a larger step", maxGeneratedValues)
			}
			f, _ := new(big.Float).SetRat(x).Float64()
			vals = append(vals, cty.NumberFloatVal(f))
		}
		return cty.ListVal(vals), nil
	},
})

// ratOf is a number's exact value.
func ratOf(v cty.Value) *big.Rat {
	r, _ := v.AsBigFloat().Rat(nil)
	if r == nil {
		return new(big.Rat)
	}
	return r
}

// pow2Func is pow2(1, 32) = [1, 2, 4, 8, 16, 32]: the powers of two from
// the first to the second argument, both included.
var pow2Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "from", Type: cty.Number},
		{Name: "to", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.List(cty.Number)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		from, err := powerOfTwo(args[0], 0)
		if err != nil {
			return cty.NilVal, err
		}
		to, err := powerOfTwo(args[1], 1)
		if err != nil {
			return cty.NilVal, err
		}
		if from > to {
			return cty.NilVal, function.NewArgErrorf(1, "the end must not be below the start")
		}
		var vals []cty.Value
		for x := from; x <= to && x > 0; x *= 2 {
			vals = append(vals, cty.NumberIntVal(x))
		}
		return cty.ListVal(vals), nil
	},
})

// powerOfTwo returns argument i as a whole power of two.
func powerOfTwo(v cty.Value, i int) (int64, error) {
	n, acc := v.AsBigFloat().Int64()
	if acc != big.Exact || n <= 0 || n&(n-1) != 0 {
		return 0, function.NewArgErrorf(i, "%s is not a power of two (1, 2, 4, 8, ...)", v.AsBigFloat().Text('g', 10))
	}
	return n, nil
}

// sumFunc is sum([10, 70, 20]) = 100.
var sumFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Number)}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		total := new(big.Float)
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if v.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "the list holds a null")
			}
			total.Add(total, v.AsBigFloat())
		}
		return cty.NumberVal(total), nil
	},
})

// boolsFunc is alltrue (all) or anytrue (!all) over a list of bools.
func boolsFunc(all bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			for it := args[0].ElementIterator(); it.Next(); {
				_, v := it.Element()
				if v.IsNull() {
					return cty.NilVal, function.NewArgErrorf(0, "the list holds a null")
				}
				if v.True() != all {
					return cty.BoolVal(!all), nil
				}
			}
			return cty.BoolVal(all), nil
		},
	})
}
