package script_test

import (
	"context"
	"fmt"

	"github.com/drivebench/drivebench/script"
)

// A check hook receives the values it judges as one frozen argument; a
// script.Struct becomes a struct whose fields the hook reads as run.value.
func ExampleRuntime_Check() {
	// testdata/checks.star:
	//
	//	def over_limit(run):
	//	    if run.value > run.limit:
	//	        return verdict("fail", "%d > %d" % (run.value, run.limit))
	//	    return verdict("pass", "%d <= %d" % (run.value, run.limit))
	r := script.New("testdata", script.Limits{})
	verdicts, _, err := r.Check(context.Background(), "checks.star", "over_limit",
		script.Struct{"value": 7, "limit": 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(verdicts)
	// Output: [{fail 7 > 5}]
}

// Every error points into the hook file, relative to the plan folder.
func ExampleError() {
	r := script.New("testdata", script.Limits{})
	_, _, err := r.Call(context.Background(), "errors.star", "divide", script.Struct{"a": 1, "b": 0})
	fmt.Println(err)
	// Output: errors.star:5:18: floored division by zero
}
