package native

import (
	"testing"
	"unsafe"
)

// TestCountersWrittenPerIOHaveALineToThemselves: a counter that one CPU
// writes for every I/O must not share a cache line with fields another
// CPU reads for every I/O, wherever the allocator puts the struct (a
// 200-byte job lands at any multiple of 208). That takes 56 bytes of the
// struct's own on each side of the counter. The job's cursor once had
// them on one side only, and two psync jobs lost 4 % of their IOPS to
// the line the CPUs passed between them.
func TestCountersWrittenPerIOHaveALineToThemselves(t *testing.T) {
	const line = 64
	for _, tc := range []struct {
		name          string
		offset, width uintptr
		size          uintptr
	}{
		{"job.cursor", unsafe.Offsetof(job{}.cursor), unsafe.Sizeof(job{}.cursor), unsafe.Sizeof(job{})},
		{"recorder.state", unsafe.Offsetof(recorder{}.state), unsafe.Sizeof(recorder{}.state), unsafe.Sizeof(recorder{})},
	} {
		before, after := tc.offset, tc.size-tc.offset-tc.width
		if before < line-tc.width || after < line-tc.width {
			t.Errorf("%s: %d bytes of its struct before it and %d after; want at least %d on each side", tc.name, before, after, line-tc.width)
		}
	}
}
