package nvme

import "strings"

// flagNames lists the names of the bits set in v; names[i] names bit i and
// an empty name leaves that bit out.
func flagNames(v uint64, names []string) []string {
	var out []string
	for i, name := range names {
		if name != "" && v&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

// flagString joins flagNames with commas, "none" when no named bit is set.
func flagString(v uint64, names []string) string {
	if set := flagNames(v, names); len(set) > 0 {
		return strings.Join(set, ",")
	}
	return "none"
}

// AdminCommands is the OACS field of Identify Controller: the optional
// admin commands the controller supports.
type AdminCommands uint16

// Bits of AdminCommands.
const (
	OACSSecurity        AdminCommands = 1 << 0 // Security Send/Receive
	OACSFormat          AdminCommands = 1 << 1 // Format NVM
	OACSFirmware        AdminCommands = 1 << 2 // Firmware Download/Commit
	OACSNamespaceMgmt   AdminCommands = 1 << 3 // Namespace Management/Attachment
	OACSSelfTest        AdminCommands = 1 << 4 // Device Self-test
	OACSDirectives      AdminCommands = 1 << 5 // Directive Send/Receive
	OACSNVMeMI          AdminCommands = 1 << 6 // NVMe-MI Send/Receive
	OACSVirtualization  AdminCommands = 1 << 7 // Virtualization Management
	OACSDoorbellBuffer  AdminCommands = 1 << 8 // Doorbell Buffer Config
	OACSGetLBAStatus    AdminCommands = 1 << 9 // Get LBA Status
	OACSCommandLockdown AdminCommands = 1 << 10
)

var oacsNames = []string{"security", "format", "firmware", "ns-mgmt", "self-test", "directives",
	"nvme-mi", "virtualization", "doorbell-buffer", "get-lba-status", "lockdown"}

// Has reports whether every bit of bits is set.
func (a AdminCommands) Has(bits AdminCommands) bool { return a&bits == bits }

// Names lists the supported commands, e.g. ["format", "firmware"].
func (a AdminCommands) Names() []string { return flagNames(uint64(a), oacsNames) }

// String lists the supported commands, comma-separated, or "none".
func (a AdminCommands) String() string { return flagString(uint64(a), oacsNames) }

// NVMCommands is the ONCS field of Identify Controller: the optional NVM
// command set commands and features the controller supports.
type NVMCommands uint16

// Bits of NVMCommands.
const (
	ONCSCompare            NVMCommands = 1 << 0
	ONCSWriteUncorrectable NVMCommands = 1 << 1
	ONCSDatasetManagement  NVMCommands = 1 << 2 // deallocate (TRIM)
	ONCSWriteZeroes        NVMCommands = 1 << 3
	ONCSSaveSelect         NVMCommands = 1 << 4 // Save field / Select in features
	ONCSReservations       NVMCommands = 1 << 5
	ONCSTimestamp          NVMCommands = 1 << 6
	ONCSVerify             NVMCommands = 1 << 7
	ONCSCopy               NVMCommands = 1 << 8
)

var oncsNames = []string{"compare", "write-uncorrectable", "dsm", "write-zeroes", "save-select",
	"reservations", "timestamp", "verify", "copy"}

// Has reports whether every bit of bits is set.
func (c NVMCommands) Has(bits NVMCommands) bool { return c&bits == bits }

// Names lists the supported commands.
func (c NVMCommands) Names() []string { return flagNames(uint64(c), oncsNames) }

// String lists the supported commands, comma-separated, or "none".
func (c NVMCommands) String() string { return flagString(uint64(c), oncsNames) }

// SanitizeCaps is the SANICAP field of Identify Controller.
type SanitizeCaps uint32

// Bits of SanitizeCaps.
const (
	SanicapCrypto    SanitizeCaps = 1 << 0 // Crypto Erase supported
	SanicapBlock     SanitizeCaps = 1 << 1 // Block Erase supported
	SanicapOverwrite SanitizeCaps = 1 << 2 // Overwrite supported
	// SanicapNoDeallocInhibited means the controller ignores the
	// no-deallocate flag and always deallocates after a sanitize.
	SanicapNoDeallocInhibited SanitizeCaps = 1 << 29
)

var sanicapNames = []string{"crypto", "block", "overwrite", 29: "ndi"}

// Has reports whether every bit of bits is set.
func (s SanitizeCaps) Has(bits SanitizeCaps) bool { return s&bits == bits }

// Supports reports whether the controller supports the sanitize action.
func (s SanitizeCaps) Supports(a SanitizeAction) bool {
	switch a {
	case SanitizeCryptoErase:
		return s.Has(SanicapCrypto)
	case SanitizeBlockErase:
		return s.Has(SanicapBlock)
	case SanitizeOverwrite:
		return s.Has(SanicapOverwrite)
	case SanitizeExitFailureMode:
		return s&(SanicapCrypto|SanicapBlock|SanicapOverwrite) != 0
	}
	return false
}

// Names lists the supported sanitize operations.
func (s SanitizeCaps) Names() []string { return flagNames(uint64(s), sanicapNames) }

// String lists the supported operations, comma-separated, or "none".
func (s SanitizeCaps) String() string { return flagString(uint64(s), sanicapNames) }

// FormatAttrs is the FNA field of Identify Controller.
type FormatAttrs uint8

// Bits of FormatAttrs.
const (
	// FNAFormatAll means a Format NVM applies to every namespace.
	FNAFormatAll FormatAttrs = 1 << 0
	// FNAEraseAll means a secure erase applies to every namespace.
	FNAEraseAll FormatAttrs = 1 << 1
	// FNACryptoErase means Format NVM supports the crypto-erase setting.
	FNACryptoErase FormatAttrs = 1 << 2
)

var fnaNames = []string{"format-all-ns", "erase-all-ns", "crypto-erase"}

// Has reports whether every bit of bits is set.
func (f FormatAttrs) Has(bits FormatAttrs) bool { return f&bits == bits }

// String lists the attributes set, comma-separated, or "none".
func (f FormatAttrs) String() string { return flagString(uint64(f), fnaNames) }

// CriticalWarning is the critical_warning byte of the SMART/health log.
type CriticalWarning uint8

// Bits of CriticalWarning.
const (
	WarnSpareLow          CriticalWarning = 1 << 0 // available spare below threshold
	WarnTemperature       CriticalWarning = 1 << 1 // temperature outside its thresholds
	WarnReliability       CriticalWarning = 1 << 2 // media or internal errors degrade reliability
	WarnReadOnly          CriticalWarning = 1 << 3 // media placed in read-only mode
	WarnVolatileBackup    CriticalWarning = 1 << 4 // volatile memory backup failed
	WarnPersistentMemRead CriticalWarning = 1 << 5 // persistent memory region read-only
)

var criticalWarningNames = []string{"spare", "temperature", "reliability", "read-only",
	"volatile-backup", "pmr-read-only"}

// CriticalWarningBits is how many bits of CriticalWarning the
// specification defines; the rest are reserved.
const CriticalWarningBits = 6

// Has reports whether every bit of bits is set.
func (w CriticalWarning) Has(bits CriticalWarning) bool { return w&bits == bits }

// Names lists the warnings raised.
func (w CriticalWarning) Names() []string { return flagNames(uint64(w), criticalWarningNames) }

// String lists the warnings raised, comma-separated, or "none".
func (w CriticalWarning) String() string { return flagString(uint64(w), criticalWarningNames) }
