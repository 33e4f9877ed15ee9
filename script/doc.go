// Package script runs the Starlark hooks of a test plan: checks that judge
// a profile's results ([Runtime.Check]), steady-state rules
// ([Runtime.SteadyState]), adaptive sweeps ([Runtime.NextPoint]), parsers
// of external tools' output ([Runtime.Parse]) and report summaries
// ([Runtime.Summary]), and the tests plan authors write for them
// ([Runtime.RunTests]).
//
// A plan's numbers are only half of a review; the other half is the judgement
// ("p99 stays under 5 ms at every queue depth"), and that judgement differs
// from one team to the next. Hooks let a plan author write it as a small,
// pure function in a .star file next to the plan, while drivebench keeps
// control of everything the function can reach:
//
//   - A hook sees only the values it is given, converted to frozen Starlark
//     values (see [Struct] and [Func]), and a few predeclared names: verdict,
//     struct, math, json, fixed (fixed decimals, which Starlark's own
//     formatting lacks) and fmt (figures written as the reports' tables
//     write them). There is no file, network or clock access.
//   - load() reaches only files inside the plan's folder ([Runtime.Root]);
//     absolute paths elsewhere, ".." escapes and symbolic links that lead out
//     are refused, as are load cycles.
//   - Every call is bounded in Starlark execution steps and in wall-clock
//     time ([Limits]); a hook that loops forever is stopped with an error that
//     names the limit.
//   - Hooks run in a worker process whose address space is limited
//     ([Limits.Memory]); a hook over it ends the worker, not drivebench, and
//     its call fails with [ErrMemoryLimit]. What a hook returns and prints is
//     capped ([MaxVerdicts], [MaxMessageBytes], [MaxPrints]).
//   - print() output is captured and returned to the caller, never written to
//     the terminal.
//   - Every error is an [*Error] positioned in the .star file, relative to the
//     plan folder ("checks/latency.star:12:5: ..."), with a Starlark backtrace.
//
// # Values
//
// Go values passed to a hook become frozen Starlark values, so a hook cannot
// change what it is given:
//
//	nil                       None
//	bool                      bool
//	any integer kind          int
//	float32, float64          float
//	string                    string
//	slice or array            list
//	map with string keys      dict, keys in sorted order
//	Struct                    struct (fields read as p.read.iops)
//	Func                      built-in function, named after its field or key
//	Model(v)                  v as its JSON document lays it out (dicts, lists,
//	                          whole numbers as ints), built from the Go value
//
// Named types convert by their kind; anything else (pointers, Go structs,
// channels) is an error naming the value's place, such as
// "points[3].read: cannot pass a Go *metrics.DirStats to a hook".
//
// A hook's result comes back as None -> nil, bool, int -> int64 (an error if
// it does not fit), float -> float64, string, list and tuple -> []any, and
// dict with string keys and struct -> map[string]any; other values are an
// error naming their type. Each kind of hook checks the shape of its result
// and reports one that does not fit at the function's definition, saying
// what the hook must return; [Runtime.CheckFunction] checks, before any
// call, that a function takes the arguments drivebench passes.
//
// The values drivebench passes are shaped once, here ([Point], [Direction],
// [Drive], [CheckInput]), so that the engine and hook tests pass the same.
//
// # Hook files
//
// A file's top-level code runs once per worker process; its globals are
// then frozen and shared by the worker's later calls. A Runtime is safe for
// concurrent use; its calls run one at a time in its worker.
//
// The dialect is standard Starlark plus while loops, if/for/while at top
// level, and the set type; recursion and reassigning a global are not allowed.
// Steps and time bound loops; forbidding recursion keeps the call depth, and
// so the Go stack, bounded too.
//
// # Hook tests
//
// Files named *_test.star are tests: they load() the hooks they test and
// define test_ functions, which [Runtime.RunTests] calls one by one under
// the same limits. Besides the hooks' names they see the modules assert and
// hooktest, which builds the values drivebench passes and calls hooks as the
// engine does (see docs/hooks.md).
package script
