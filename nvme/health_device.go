//go:build linux

package nvme

import "time"

// Snapshot reads the identity and SMART/health log of the NVMe controller
// behind path: a namespace block device (/dev/nvme0n1, whose admin
// commands the driver passes to its controller), a partition of one, a
// generic namespace device (/dev/ng0n1) or a controller (/dev/nvme0). It
// needs root (CAP_SYS_ADMIN); IsNVMe tells first whether path is NVMe at
// all.
func Snapshot(path string) (*HealthSnapshot, error) {
	d, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Snapshot()
}

// Snapshot reads Identify Controller, Identify Namespace (for a namespace
// device) and the controller-wide SMART/health log.
func (d *Device) Snapshot() (*HealthSnapshot, error) {
	s := &HealthSnapshot{Path: d.Path, NSID: d.NSID}
	var err error
	if s.IDCtrl, err = d.IdentifyController(); err != nil {
		return nil, err
	}
	if d.NSID != 0 {
		if s.IDNs, err = d.IdentifyNamespace(d.NSID); err != nil {
			return nil, err
		}
	}
	if s.SmartLog, err = d.SmartLog(); err != nil {
		return nil, err
	}
	s.Time = time.Now()
	return s, nil
}
