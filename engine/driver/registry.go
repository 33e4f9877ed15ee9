package driver

import (
	"fmt"
	"slices"
	"sync"
)

// Setup is what a driver is opened with for a run: the run's testbed
// facts a driver may need.
type Setup struct {
	// Hosts are the testbed's fio servers ("host:port"); empty runs
	// locally.
	Hosts []string
}

// registry holds the drivers the engine packages linked into a binary
// have registered, by name.
var registry struct {
	sync.Mutex
	open map[string]func(Setup) Driver
}

// Register makes a driver available under name, the value of a plan's
// engine attribute: an engine package calls it from its init function,
// so that the engines a build has are the ones it links. Registering a
// name twice is a bug in the engine packages and panics.
func Register(name string, open func(Setup) Driver) {
	registry.Lock()
	defer registry.Unlock()
	if registry.open == nil {
		registry.open = map[string]func(Setup) Driver{}
	}
	if _, dup := registry.open[name]; dup {
		panic(fmt.Sprintf("driver: engine %q registered twice", name))
	}
	registry.open[name] = open
}

// Names lists the registered engines, sorted: the values a plan's engine
// attributes may take.
func Names() []string {
	registry.Lock()
	defer registry.Unlock()
	names := make([]string, 0, len(registry.open))
	for name := range registry.open {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Open opens every registered driver for a run, by name.
func Open(s Setup) map[string]Driver {
	registry.Lock()
	defer registry.Unlock()
	drivers := make(map[string]Driver, len(registry.open))
	for name, open := range registry.open {
		drivers[name] = open(s)
	}
	return drivers
}
