// Package nvmetest makes NVMe health snapshots for the tests of packages
// that read them (reports, engine) and for the generator of the reports'
// fixtures: the pages QEMU's emulated controller returned, kept under
// nvme/testdata, decoded as nvme.Snapshot decodes a device's, and the
// same drive after a run has read and written a given amount.
package nvmetest

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/drivebench/drivebench/nvme"
)

// QEMUSnapshot decodes the pages of QEMU's emulated controller under dir
// (nvme/testdata: qemu-nvme-id-ctrl.bin, -id-ns.bin and -smart-log.bin)
// into the snapshot of /dev/nvme0n1 taken at at.
func QEMUSnapshot(dir string, at time.Time) (*nvme.HealthSnapshot, error) {
	pages := map[string][]byte{}
	for _, name := range []string{"id-ctrl", "id-ns", "smart-log"} {
		data, err := os.ReadFile(filepath.Join(dir, "qemu-nvme-"+name+".bin"))
		if err != nil {
			return nil, err
		}
		pages[name] = data
	}
	ctrl, err := nvme.DecodeIDCtrl(pages["id-ctrl"])
	if err != nil {
		return nil, fmt.Errorf("qemu-nvme-id-ctrl.bin: %w", err)
	}
	ns, err := nvme.DecodeIDNs(pages["id-ns"])
	if err != nil {
		return nil, fmt.Errorf("qemu-nvme-id-ns.bin: %w", err)
	}
	smart, err := nvme.DecodeSmartLog(pages["smart-log"])
	if err != nil {
		return nil, fmt.Errorf("qemu-nvme-smart-log.bin: %w", err)
	}
	return &nvme.HealthSnapshot{Path: "/dev/nvme0n1", Time: at, NSID: 1, IDCtrl: ctrl, IDNs: ns, SmartLog: smart}, nil
}

// After is the snapshot taken at at once the host has read and written
// the given I/Os and bytes since before: QEMU counts data units of 1,000
// blocks of 512 bytes, rounded up, and one command per I/O.
func After(before *nvme.HealthSnapshot, at time.Time, read, written, readIOs, writeIOs uint64) *nvme.HealthSnapshot {
	s := *before
	log := *before.SmartLog
	units := func(bytes uint64) uint64 { return (bytes + nvme.DataUnitBytes - 1) / nvme.DataUnitBytes }
	log.DataUnitsRead = nvme.Uint128From(log.DataUnitsRead.Lo + units(read))
	log.DataUnitsWritten = nvme.Uint128From(log.DataUnitsWritten.Lo + units(written))
	log.HostReadCommands = nvme.Uint128From(log.HostReadCommands.Lo + readIOs)
	log.HostWriteCommands = nvme.Uint128From(log.HostWriteCommands.Lo + writeIOs)
	s.Time, s.SmartLog = at, &log
	return &s
}
