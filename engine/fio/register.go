package fio

import "github.com/drivebench/drivebench/engine/driver"

// fio is the engine "fio", run on this machine or on the testbed's fio
// servers.
func init() {
	driver.Register("fio", func(s driver.Setup) driver.Driver { return Driver{Hosts: s.Hosts} })
}
