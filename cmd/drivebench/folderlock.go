package main

import (
	"errors"
	"fmt"

	"github.com/drivebench/drivebench/results"
)

// lockFolder locks the results folder dir that the command writes, for
// as long as it runs (create makes the folder when it does not exist
// yet). When another process holds it the message names that process and
// adds remedy, what to do about it; the error is also returned for a
// JUnit file.
func lockFolder(io stdio, command, dir string, create bool, remedy string) (*results.FolderLock, error) {
	lock, err := results.Lock(dir, create)
	var inUse *results.InUseError
	if errors.As(err, &inUse) {
		err = fmt.Errorf("%w; %s", err, remedy)
	}
	if err != nil {
		fmt.Fprintf(io.err, "drivebench %s: %v\n", command, err)
	}
	return lock, err
}
