package script

import (
	"fmt"
	"math"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/drivebench/drivebench/format"
)

// A hook's verdict sits in a report beside the tables, so a figure it
// quotes must read as the tables write it: "p99 1.70 ms", not the
// "1695.7 µs" of a hook's own arithmetic. The predeclared fmt module
// writes figures with the format package, the one style of every output.

// fmtModule is the predeclared fmt: fmt.latency(ns), fmt.duration(ns),
// fmt.bandwidth(bytes_per_s), fmt.count(n), fmt.grouped(x, decimals),
// fmt.bytes(n), fmt.block_size(n).
var fmtModule = &starlarkstruct.Module{
	Name: "fmt",
	Members: starlark.StringDict{
		"latency":    starlark.NewBuiltin("fmt.latency", fmtTimed(format.Latency)),
		"duration":   starlark.NewBuiltin("fmt.duration", fmtTimed(func(ns float64) string { return format.Duration(int64(math.Round(ns))) })),
		"bandwidth":  starlark.NewBuiltin("fmt.bandwidth", fmtBandwidth),
		"count":      starlark.NewBuiltin("fmt.count", fmtNumber(format.Count)),
		"bytes":      starlark.NewBuiltin("fmt.bytes", fmtNumber(func(n float64) string { return format.BytesOf(max(n, 0)) })),
		"block_size": starlark.NewBuiltin("fmt.block_size", fmtBlockSize),
		"grouped":    starlark.NewBuiltin("fmt.grouped", fmtGrouped),
	},
}

// timeUnits are what the unit argument of fmt.latency and fmt.duration
// names, in nanoseconds each.
var timeUnits = map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}

// fmtTimed makes fmt.latency and fmt.duration: a time in nanoseconds, or
// in the unit named (unit = "us" for a limit_us), written by write.
func fmtTimed(write func(ns float64) string) builtin {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		unit := "ns"
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "unit?", &unit); err != nil {
			return nil, err
		}
		scale, ok := timeUnits[unit]
		if !ok {
			return nil, fmt.Errorf("%s: unit %q: give \"ns\", \"us\", \"ms\" or \"s\"", b.Name(), unit)
		}
		v, err := numberArg(b, x)
		if err != nil {
			return nil, err
		}
		return starlark.String(write(v * scale)), nil
	}
}

// builtin is the signature of a Starlark builtin's function.
type builtin = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

// fmtNumber makes a function of one number written by write.
func fmtNumber(write func(float64) string) builtin {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		v, err := numberArg(b, x)
		if err != nil {
			return nil, err
		}
		return starlark.String(write(v)), nil
	}
}

// fmtBandwidth is fmt.bandwidth(bytes_per_s, units = "MB/s"), in the
// report block's units: "8,668.1 MB/s" or "8,266.4 MiB/s".
func fmtBandwidth(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	units := "MB/s"
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "bytes_per_s", &x, "units?", &units); err != nil {
		return nil, err
	}
	v, err := numberArg(b, x)
	if err != nil {
		return nil, err
	}
	switch units {
	case "MB/s":
		return starlark.String(format.Bandwidth(v)), nil
	case "MiB/s":
		return starlark.String(format.BandwidthMiB(v)), nil
	}
	return nil, fmt.Errorf("%s: units %q: give \"MB/s\" or \"MiB/s\", as the report block's units", b.Name(), units)
}

// fmtBlockSize is fmt.block_size(bytes): "4KiB", as spec sheets write it.
func fmtBlockSize(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n int64
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &n); err != nil {
		return nil, err
	}
	return starlark.String(format.BlockSize(n)), nil
}

// fmtGrouped is fmt.grouped(x, decimals): "8,668.1" for (8668.14, 1).
func fmtGrouped(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	decimals := 0
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x, &decimals); err != nil {
		return nil, err
	}
	if decimals < 0 || decimals > 12 {
		return nil, fmt.Errorf("%s: %d decimals; give 0 to 12", b.Name(), decimals)
	}
	v, err := numberArg(b, x)
	if err != nil {
		return nil, err
	}
	return starlark.String(format.Grouped(v, decimals)), nil
}

// numberArg is x, an int or a float, as a float, or an error naming the
// function.
func numberArg(b *starlark.Builtin, x starlark.Value) (float64, error) {
	f, ok := number(x)
	if !ok {
		return 0, fmt.Errorf("%s: got %s, want a number", b.Name(), x.Type())
	}
	return f, nil
}
