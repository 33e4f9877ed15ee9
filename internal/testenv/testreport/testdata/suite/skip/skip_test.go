package skip

import "testing"

func TestNeedsTool(t *testing.T) { t.Skip("needs fio: it is not installed") }

func TestNoDrive(t *testing.T) {
	t.Log("looking for /dev/nvme0")
	t.Skip("no NVMe drive here")
}

func TestParent(t *testing.T) {
	t.Run("runs", func(t *testing.T) {})
	t.Run("skips", func(t *testing.T) { t.Skip("a subtest's skip") })
}
