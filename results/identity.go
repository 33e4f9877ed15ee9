package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/format"
)

// Identity is who a drive is, two ways: what the drive reported of
// itself (NVMe identify, sysfs: its facts) and what the plan declared (the
// drive block's model, serial, firmware and vendor; the capacity of the
// spec sheet it is held to). Reports and the catalog name a drive by
// Known, and say where the two disagree.
type Identity struct {
	Detected IdentityFields `json:"detected"`
	Declared IdentityFields `json:"declared"`
	// DeclaredBy is Drive.DeclaredBy: who declared Declared, empty for
	// the plan.
	DeclaredBy string `json:"declared_by,omitempty"`
	// ownCapacity is the capacity declared for this drive itself
	// (Drive.Declared's capacity_bytes: import fio -capacity), which,
	// unlike a spec sheet's, is known of it.
	ownCapacity int64
}

// DeclaredCapacity is the key of Drive.Declared that holds the capacity
// declared for the drive itself, in bytes, as decimal text.
const DeclaredCapacity = "capacity_bytes"

// IdentityFields are the parts of a drive's identity; empty or 0 when
// not known.
type IdentityFields struct {
	Model         string `json:"model,omitempty"`
	Serial        string `json:"serial,omitempty"`
	Firmware      string `json:"firmware,omitempty"`
	Vendor        string `json:"vendor,omitempty"`
	CapacityBytes int64  `json:"capacity_bytes,omitempty"`
}

// capacitySlack is how far a drive's capacity may lie from its spec
// sheet's before they are said to disagree: sheets round capacities
// ("1.92TB" for 1,920,383,410,176 bytes).
const capacitySlack = 0.02

// Identity reads the drive's identity from its detected facts and its
// declarations. A file's size is not a capacity a drive reported, so only
// a block device's counts as detected.
func (d Drive) Identity() Identity {
	fact := func(k string) string { return strings.TrimSpace(d.Facts[k]) }
	decl := func(k string) string { return strings.TrimSpace(d.Declared[k]) }
	id := Identity{
		Detected:   IdentityFields{Model: fact("model"), Serial: fact("serial"), Firmware: fact("firmware"), Vendor: fact("vendor")},
		Declared:   IdentityFields{Model: decl("model"), Serial: decl("serial"), Firmware: decl("firmware"), Vendor: decl("vendor")},
		DeclaredBy: d.DeclaredBy,
	}
	if size, err := strconv.ParseInt(fact("size"), 10, 64); err == nil && fact("type") == "block" {
		id.Detected.CapacityBytes = size
	}
	if d.SpecSheet != nil {
		id.Declared.CapacityBytes = d.SpecSheet.Capacity
	}
	if own, err := strconv.ParseInt(decl(DeclaredCapacity), 10, 64); err == nil && own > 0 {
		id.ownCapacity, id.Declared.CapacityBytes = own, own
	}
	return id
}

// Known is what the drive reported, with what the plan declared for what
// it did not; but its capacity only as the drive reported it or as it was
// declared for this drive itself, since a spec sheet's capacity is a
// claim about drives of a model, not a fact of this one (a scratch file
// held to a 15.36 TB sheet holds 256 MiB).
func (id Identity) Known() IdentityFields {
	or := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	k := IdentityFields{
		Model: or(id.Detected.Model, id.Declared.Model), Serial: or(id.Detected.Serial, id.Declared.Serial),
		Firmware: or(id.Detected.Firmware, id.Declared.Firmware), Vendor: or(id.Detected.Vendor, id.Declared.Vendor),
		CapacityBytes: id.Detected.CapacityBytes,
	}
	if k.CapacityBytes == 0 {
		k.CapacityBytes = id.ownCapacity
	}
	return k
}

// Mismatches say where the plan's declarations and the drive's report
// disagree: "serial: the plan declares AX1-001, the drive reports
// AX1-002"; capacities disagree beyond capacitySlack. Empty when they
// agree or one side is silent.
func (id Identity) Mismatches() []string {
	out := []string{}
	for _, f := range []struct{ name, declared, detected string }{
		{"model", id.Declared.Model, id.Detected.Model},
		{"serial", id.Declared.Serial, id.Detected.Serial},
		{"firmware", id.Declared.Firmware, id.Detected.Firmware},
		{"vendor", id.Declared.Vendor, id.Detected.Vendor},
	} {
		if f.declared != "" && f.detected != "" && !strings.EqualFold(f.declared, f.detected) {
			out = append(out, fmt.Sprintf("%s: the plan declares %s, the drive reports %s", f.name, f.declared, f.detected))
		}
	}
	decl, det := float64(id.Declared.CapacityBytes), float64(id.Detected.CapacityBytes)
	if decl > 0 && det > 0 && math.Abs(det-decl) > capacitySlack*decl {
		out = append(out, fmt.Sprintf("capacity: the spec sheet is for %s, the drive holds %s",
			format.Bytes(uint64(decl)), format.Bytes(uint64(det))))
	}
	return out
}

// Label names the drive by its known identity for people: "KIOXIA
// KCM9XRJE15T3, S/N X4E0A01ZT1A8, FW 0102"; "" when nothing is known.
func (k IdentityFields) Label() string {
	var parts []string
	if k.Model != "" {
		parts = append(parts, k.Model)
	}
	if k.Serial != "" {
		parts = append(parts, "S/N "+k.Serial)
	}
	if k.Firmware != "" {
		parts = append(parts, "FW "+k.Firmware)
	}
	return strings.Join(parts, ", ")
}
