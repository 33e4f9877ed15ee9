package reports

import (
	"strings"

	"github.com/drivebench/drivebench/format"
)

// A drive is named by who it is wherever the report names it for a
// reader who was not there: the header, its section, the Conclusion and
// the labels of comparables' drives, as model, serial and firmware
// ("KIOXIA KCM9XRJE15T3, S/N X4E0A01ZT1A8, FW 0102"); the plan's name
// for it ("cm9", "scratch") says nothing across runs.

// labelled is a drive's name with its identity: "cm9 (KIOXIA
// KCM9XRJE15T3, S/N X4E0A01ZT1A8, FW 0102)"; the name alone when nothing
// is known of it. more are further notes inside the brackets, such as
// the comparable the drive's results come from.
func labelled(name, identity string, more ...string) string {
	parts := []string{}
	for _, p := range append([]string{identity}, more...) {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return name
	}
	return name + " (" + strings.Join(parts, "; ") + ")"
}

// driveLabel is the label of this run's drive named name.
func (s *Summary) driveLabel(name string) string {
	return labelled(name, identityOf(s.Drives, name))
}

// drivesText names every drive of the run with its identity, "" when
// no drive's identity is known.
func drivesText(s *Summary) string {
	var names []string
	known := false
	for _, d := range s.Drives {
		known = known || d.Identity.Known.Label() != ""
		names = append(names, labelled(d.Name, d.Identity.Known.Label()))
	}
	if !known {
		return ""
	}
	return strings.Join(names, ", ")
}

// identitySentence says who a drive is and who said so, and where the
// plan and the drive disagree: "Identity: KIOXIA KCM9XRJE15T3, S/N
// X4E0A01ZT1A8, FW 0102, 15.36 TB (reported by the drive)."
func identitySentence(drv Drive) string {
	id := drv.Identity
	k := id.Known
	text := k.Label()
	if k.CapacityBytes > 0 {
		text = joinNonEmpty(", ", text, format.Bytes(uint64(k.CapacityBytes)))
	}
	if text == "" {
		return "Identity: none; the drive reported no model, serial or firmware, and " + declarer(id) + " declares none."
	}
	text = "Identity: " + text + " (" + identitySources(id) + ")."
	if len(id.Mismatches) > 0 {
		text += " Mismatch: " + strings.Join(id.Mismatches, "; ") + "."
	}
	return text
}

// declarer is who declared a drive's identity: "the plan", or the
// command of an import ("import fio -model, -serial").
func declarer(id DriveIdentity) string {
	if id.DeclaredBy == "" {
		return "the plan"
	}
	return id.DeclaredBy
}

// declaredPhrase says where the declared parts of an identity come from:
// "declared in the plan", or "declared with import fio -model, -serial".
func declaredPhrase(id DriveIdentity) string {
	if id.DeclaredBy == "" {
		return "declared in the plan"
	}
	return "declared with " + id.DeclaredBy
}

// identitySources says which parts of the known identity the drive
// reported and which were declared, and by whom.
func identitySources(id DriveIdentity) string {
	var detected, declared []string
	for _, f := range []struct {
		name           string
		detected, used bool
	}{
		{"model", id.Detected.Model != "", id.Known.Model != ""},
		{"serial", id.Detected.Serial != "", id.Known.Serial != ""},
		{"firmware", id.Detected.Firmware != "", id.Known.Firmware != ""},
		{"capacity", id.Detected.CapacityBytes > 0, id.Known.CapacityBytes > 0},
	} {
		switch {
		case !f.used:
		case f.detected:
			detected = append(detected, f.name)
		default:
			declared = append(declared, f.name)
		}
	}
	switch {
	case len(declared) == 0:
		return "reported by the drive"
	case len(detected) == 0:
		return declaredPhrase(id)
	}
	return listWords(detected) + " reported by the drive; " + listWords(declared) + " " + declaredPhrase(id)
}

// identityOf is the identity label of drive name among drives.
func identityOf(drives []Drive, name string) string {
	for _, d := range drives {
		if d.Name == name {
			return d.Identity.Known.Label()
		}
	}
	return ""
}
