package native

import "github.com/drivebench/drivebench/engine/driver"

// The built-in engine is the engine "native", which a plan's engine
// attribute names and which runs every step whose drive names no other.
func init() {
	driver.Register("native", func(driver.Setup) driver.Driver { return Engine{} })
}
