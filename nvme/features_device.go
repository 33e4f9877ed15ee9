//go:build linux

package nvme

import "fmt"

// VolatileWriteCache reads whether the volatile write cache is enabled.
// The feature is the controller's, so it is addressed to every namespace.
func (d *Device) VolatileWriteCache() (bool, error) {
	v, err := d.run("get features: volatile write cache", getFeaturesCmd(FeatureVolatileWriteCache, NSIDAll))
	return v&1 != 0, err
}

// SetVolatileWriteCache enables or disables the volatile write cache.
func (d *Device) SetVolatileWriteCache(on bool) error {
	_, err := d.run("set features: volatile write cache", setFeaturesCmd(FeatureVolatileWriteCache, NSIDAll, bit(on, 0)))
	return err
}

// SwitchWriteCache puts the volatile write cache of the controller behind
// path in state on, checking first that the controller has one and then
// that the new state holds. Restore puts back the state it found.
func SwitchWriteCache(path string, on bool) (*WriteCacheSwitch, error) {
	d, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.switchWriteCache(on)
}

func (d *Device) switchWriteCache(on bool) (*WriteCacheSwitch, error) {
	c, err := d.IdentifyController()
	if err != nil {
		return nil, err
	}
	if !c.VolatileWriteCache() {
		return nil, fmt.Errorf("nvme: %s: %w", d.Path, ErrNoWriteCache)
	}
	found, err := d.VolatileWriteCache()
	if err != nil {
		return nil, err
	}
	s := &WriteCacheSwitch{Path: d.Path, Found: found, Set: on}
	if found == on {
		return s, nil
	}
	if err := d.SetVolatileWriteCache(on); err != nil {
		return nil, err
	}
	if now, err := d.VolatileWriteCache(); err != nil || now != on {
		d.SetVolatileWriteCache(found)
		if err == nil {
			err = fmt.Errorf("nvme: %s accepted Set Features (volatile write cache %s) but still reports it %s", d.Path, onOff(on), onOff(now))
		}
		return nil, err
	}
	return s, nil
}

// Restore puts the write cache back in the state it was found in, and
// checks that it holds.
func (s *WriteCacheSwitch) Restore() error {
	d, err := Open(s.Path)
	if err != nil {
		return err
	}
	defer d.Close()
	return s.restore(d)
}

func (s *WriteCacheSwitch) restore(d *Device) error {
	if s.Found == s.Set {
		return nil
	}
	if err := d.SetVolatileWriteCache(s.Found); err != nil {
		return err
	}
	now, err := d.VolatileWriteCache()
	if err == nil && now != s.Found {
		err = fmt.Errorf("nvme: %s accepted Set Features (volatile write cache %s) but still reports it %s", d.Path, onOff(s.Found), onOff(now))
	}
	return err
}
