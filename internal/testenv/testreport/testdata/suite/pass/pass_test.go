package pass

import "testing"

func TestPass(t *testing.T) { t.Log("quiet unless it fails") }
