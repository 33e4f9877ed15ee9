package fail

import "testing"

func TestFail(t *testing.T) {
	t.Run("bad", func(t *testing.T) { t.Error("got 1, want 2") })
	t.Run("good", func(t *testing.T) {})
}
