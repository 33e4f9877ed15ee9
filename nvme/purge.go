package nvme

import (
	"fmt"
	"strings"
	"time"
)

// A purge erases every user data block so that a benchmark starts from a
// known state: a fresh-out-of-box drive after a block-erase sanitize, or
// zeroed blocks after a format with user data erase. The methods are named
// as a plan names them.
const (
	PurgeSanitizeBlock     = "sanitize-block"     // Sanitize, block erase
	PurgeSanitizeCrypto    = "sanitize-crypto"    // Sanitize, crypto erase
	PurgeSanitizeOverwrite = "sanitize-overwrite" // Sanitize, one overwrite pass of zeroes
	PurgeFormat            = "format"             // Format NVM with user data erase
	PurgeFormatCrypto      = "format-crypto"      // Format NVM with crypto erase
)

// purgeFormatTimeout bounds a Format NVM with erase; the controller may
// rewrite the whole namespace, which on a large drive takes minutes.
const purgeFormatTimeout = time.Hour

// purgeMethod is one way to purge and what the controller must support
// for it.
type purgeMethod struct {
	name string
	// sanitize is the Sanitize action; 0 for a Format NVM.
	sanitize SanitizeAction
	// erase is the Format NVM secure erase setting.
	erase SecureErase
}

var purgeMethods = []purgeMethod{
	{name: PurgeSanitizeBlock, sanitize: SanitizeBlockErase},
	{name: PurgeSanitizeCrypto, sanitize: SanitizeCryptoErase},
	{name: PurgeSanitizeOverwrite, sanitize: SanitizeOverwrite},
	{name: PurgeFormat, erase: UserDataErase},
	{name: PurgeFormatCrypto, erase: CryptoErase},
}

// PurgeMethods lists the purge method names Purge accepts.
func PurgeMethods() []string {
	names := make([]string, len(purgeMethods))
	for i, m := range purgeMethods {
		names[i] = m.name
	}
	return names
}

// lookupPurge finds a purge method by name.
func lookupPurge(name string) (purgeMethod, error) {
	for _, m := range purgeMethods {
		if m.name == name {
			return m, nil
		}
	}
	return purgeMethod{}, fmt.Errorf("nvme: purge method %q unknown; use one of %s", name, strings.Join(PurgeMethods(), ", "))
}

// String names the command the method sends, e.g. "sanitize (block
// erase)" or "format nvm (user data erase)".
func (m purgeMethod) String() string {
	if m.sanitize != 0 {
		return "sanitize (" + m.sanitize.String() + ")"
	}
	return "format nvm (" + m.erase.String() + ")"
}

// supportedBy reports whether the controller implements the method:
// Sanitize actions are listed in SANICAP, Format NVM in OACS, and a
// crypto erase by Format NVM in FNA.
func (m purgeMethod) supportedBy(c *IDCtrl) bool {
	if m.sanitize != 0 {
		return c.SANICAP.Supports(m.sanitize)
	}
	if !c.OACS.Has(OACSFormat) {
		return false
	}
	return m.erase != CryptoErase || c.FNA.Has(FNACryptoErase)
}

// wholeSubsystem reports whether the method erases every namespace, not
// only the one it is sent for: Sanitize always does, and Format NVM does
// when FNA says a format or a secure erase applies to all namespaces.
func (m purgeMethod) wholeSubsystem(c *IDCtrl) bool {
	return m.sanitize != 0 || c.FNA.Has(FNAFormatAll) || c.FNA.Has(FNAEraseAll)
}

// SupportedPurgeMethods lists the purge methods the controller implements.
func SupportedPurgeMethods(c *IDCtrl) []string {
	var names []string
	for _, m := range purgeMethods {
		if m.supportedBy(c) {
			names = append(names, m.name)
		}
	}
	return names
}

// checkPurgeSupport explains why the controller cannot purge with m.
func checkPurgeSupport(c *IDCtrl, m purgeMethod, path string) error {
	if m.supportedBy(c) {
		return nil
	}
	supported := "none of them"
	if names := SupportedPurgeMethods(c); len(names) > 0 {
		supported = strings.Join(names, ", ")
	}
	return fmt.Errorf("nvme: purge %s on %s: the controller (%s) does not support %s (SANICAP: %v; OACS: %v; FNA: %v); of the purge methods it supports %s",
		m.name, path, c.MN, m, c.SANICAP, c.OACS, c.FNA, supported)
}

// purgeSanitizeOptions are the Sanitize settings of a purge: the media is
// deallocated afterwards, and an overwrite writes one pass of zeroes.
func purgeSanitizeOptions(m purgeMethod) SanitizeOptions {
	return SanitizeOptions{Action: m.sanitize, OverwritePasses: 1}
}

// purgeFormatOptions are the Format NVM settings of a purge: the
// namespace keeps its layout and is erased.
func purgeFormatOptions(m purgeMethod, ns *IDNs) FormatOptions {
	opts := ns.SameFormat(m.erase)
	opts.Timeout = purgeFormatTimeout
	return opts
}
