package native_test

import (
	"context"
	"fmt"
	"os"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"

	"github.com/drivebench/drivebench/engine/native"
)

// A sequential fill: two jobs of four outstanding 64 KiB writes cover a
// 1 MiB file twice, each job its own half of it.
func ExampleEngine_Run() {
	f, err := os.CreateTemp("", "drive")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if err := f.Truncate(1 << 20); err != nil {
		fmt.Println(err)
		return
	}
	w := workload.Workload{RW: "write", BS: 64 << 10, IODepth: 4, NumJobs: 2, Loops: 2}
	res, err := native.Engine{}.Run(context.Background(), driver.Target{Path: f.Name(), Capacity: 1 << 20}, w, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d writes, %d bytes\n", res.Write.IOs, res.Write.Bytes)
	// Output: 32 writes, 2097152 bytes
}
