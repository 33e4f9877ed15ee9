package main

import (
	"fmt"
	"os"

	"github.com/drivebench/drivebench/internal/reporttruth"
)

func main() {
	r, err := reporttruth.Load(os.Args[1], os.Args[1])
	if err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	for _, f := range reporttruth.Check(r) {
		fmt.Println(f)
	}
}
