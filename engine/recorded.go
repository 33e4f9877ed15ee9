package engine

import (
	"time"

	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// recordedLimits are hook limits as the manifest keeps them; nil when
// every one is the default.
func recordedLimits(l script.Limits) *results.HookLimits {
	if l == (script.Limits{}) {
		return nil
	}
	return &results.HookLimits{MaxSteps: l.MaxSteps, TimeoutNs: int64(l.Timeout), MemoryBytes: l.Memory}
}

// HookLimits are the hook limits a results folder's run was given, for
// hooks called again on it (drivebench report, -resume); zero fields are
// the defaults.
func HookLimits(m *results.Manifest) script.Limits {
	h := m.HookLimits
	if h == nil {
		return script.Limits{}
	}
	return script.Limits{MaxSteps: h.MaxSteps, Timeout: time.Duration(h.TimeoutNs), Memory: h.MemoryBytes}
}
