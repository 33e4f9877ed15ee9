package engine

import (
	"time"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// DeclaredDrive is what a plan's drive block says of its drive, as the
// manifest records it: its name, the identity it declares, its spec
// entries and the spec sheet it is held to. A run adds what it found of
// the drive; an import of fio's outputs (drivebench import fio -drive)
// takes it as it is.
func DeclaredDrive(pd *plan.Drive) results.Drive {
	d := results.Drive{Name: pd.Name, Declared: pd.Declared}
	for _, s := range pd.Spec {
		d.Spec = append(d.Spec, results.SpecEntry{
			Name: s.Name, Values: s.Values, RW: s.RW, BS: s.BS, IODepth: s.IODepth, NumJobs: s.NumJobs, State: s.State, PCIeGen: s.PCIeGen,
		})
	}
	if sh := pd.SpecSheet; sh != nil {
		d.SpecSheet = &results.SpecSheet{Name: sh.Name, Vendor: sh.Vendor, Model: sh.Model, Capacity: sh.Capacity, Interface: sh.Interface}
	}
	return d
}

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
