package nvme

import "errors"

// Feature commands and identifiers.
const (
	opSetFeatures = 0x09
	opGetFeatures = 0x0a

	// FeatureVolatileWriteCache (06h) enables or disables the volatile
	// write cache; bit 0 of its value is WCE.
	FeatureVolatileWriteCache = 0x06
)

// getFeaturesCmd reads the current value of a feature (SEL 000b). The
// value comes back in completion dword 0.
func getFeaturesCmd(fid uint8, nsid uint32) adminCmd {
	return adminCmd{opcode: opGetFeatures, nsid: nsid, cdw10: uint32(fid)}
}

// setFeaturesCmd sets a feature's value for now, without saving it across
// a power cycle (SV 0): a benchmark's setting must not outlive the
// benchmark if the host loses power before it restores the old one.
func setFeaturesCmd(fid uint8, nsid, value uint32) adminCmd {
	return adminCmd{opcode: opSetFeatures, nsid: nsid, cdw10: uint32(fid), cdw11: value}
}

// ErrNoWriteCache is returned when a controller has no volatile write
// cache to switch.
var ErrNoWriteCache = errors.New("the controller reports no volatile write cache (Identify Controller VWC bit 0 is clear), so there is none to switch; remove volatile_write_cache from the drive")

// WriteCacheSwitch is a volatile write cache put in a state for a run:
// the state found, the state set, and how to put the first one back.
type WriteCacheSwitch struct {
	Path string
	// Found is the state before the run, Set the state asked for.
	Found, Set bool
}

// onOff names a cache state.
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
