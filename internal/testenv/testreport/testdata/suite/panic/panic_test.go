package panic

import "testing"

func TestPanic(t *testing.T) { panic("boom") }
