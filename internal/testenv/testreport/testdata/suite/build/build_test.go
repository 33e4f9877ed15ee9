package build

import "testing"

func TestBuild(t *testing.T) { undefinedFunction() }
