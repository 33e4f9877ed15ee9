//go:build linux

package nvme

import (
	"errors"
	"testing"
)

func TestFeatureCmds(t *testing.T) {
	sameCmd(t, getFeaturesCmd(FeatureVolatileWriteCache, NSIDAll), adminCmd{opcode: 0x0a, nsid: NSIDAll, cdw10: 0x06})
	// SV (cdw10 bit 31) stays clear: the setting does not survive a power cycle.
	sameCmd(t, setFeaturesCmd(FeatureVolatileWriteCache, NSIDAll, 0), adminCmd{opcode: 0x09, nsid: NSIDAll, cdw10: 0x06, cdw11: 0})
	sameCmd(t, setFeaturesCmd(FeatureVolatileWriteCache, NSIDAll, 1), adminCmd{opcode: 0x09, nsid: NSIDAll, cdw10: 0x06, cdw11: 1})
}

// cacheController is the lab's QEMU controller with a write cache that
// Set Features switches and Get Features reads; stuck ignores the switch.
type cacheController struct {
	*fakeController
	on, stuck bool
}

func (c *cacheController) submit(cmd adminCmd) (uint32, Status, error) {
	switch cmd.opcode {
	case opGetFeatures:
		c.commands = append(c.commands, cmd)
		return bit(c.on, 0), 0, nil
	case opSetFeatures:
		c.commands = append(c.commands, cmd)
		if !c.stuck {
			c.on = cmd.cdw11&1 != 0
		}
		return 0, 0, nil
	}
	return c.fakeController.submit(cmd)
}

func TestSwitchWriteCache(t *testing.T) {
	c := &cacheController{fakeController: newFakeController(t), on: true}
	d := &Device{Path: "/dev/nvme0n1", NSID: 1, fd: -1, submit: c.submit}
	s, err := d.switchWriteCache(false)
	if err != nil {
		t.Fatal(err)
	}
	if c.on || !s.Found || s.Set {
		t.Fatalf("after the switch: cache on = %v, switch %+v; want off, found on", c.on, s)
	}
	if err := s.restore(d); err != nil || !c.on {
		t.Fatalf("restore: %v, cache on = %v; want on again", err, c.on)
	}
	// identify, get, set, get; then set, get.
	if len(c.commands) != 6 {
		t.Errorf("%d commands, want 6", len(c.commands))
	}

	c = &cacheController{fakeController: newFakeController(t), on: false}
	d.submit = c.submit
	if s, err = d.switchWriteCache(false); err != nil || s.Found || len(c.commands) != 2 {
		t.Errorf("a cache already off: %+v, %v after %d commands; want no Set Features", s, err, len(c.commands))
	}

	c = &cacheController{fakeController: newFakeController(t), on: true, stuck: true}
	d.submit = c.submit
	if _, err = d.switchWriteCache(false); err == nil {
		t.Error("a controller that ignores Set Features: no error")
	}
}

func TestSwitchWriteCacheWithoutACache(t *testing.T) {
	f := newFakeController(t)
	page := append([]byte(nil), f.pages["identify 0x01"]...)
	page[525] = 0 // VWC: no volatile write cache
	f.pages["identify 0x01"] = page
	d := &Device{Path: "/dev/nvme0n1", NSID: 1, fd: -1, submit: f.submit}
	if _, err := d.switchWriteCache(false); !errors.Is(err, ErrNoWriteCache) || len(f.commands) != 1 {
		t.Errorf("err = %v after %d commands, want ErrNoWriteCache after Identify alone", err, len(f.commands))
	}
}
