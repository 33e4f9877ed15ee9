package nvme

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/drivebench/drivebench/internal/ctxtime"
)

// Admin command opcodes.
const (
	opGetLogPage = 0x02
	opIdentify   = 0x06
	opFormatNVM  = 0x80
	opSanitize   = 0x84
)

// Identify CNS values.
const (
	cnsNamespace  = 0x00
	cnsController = 0x01
)

// Log page identifiers.
const (
	LogError    = 0x01
	LogSmart    = 0x02
	LogFwSlot   = 0x03
	LogSanitize = 0x81
)

// NSIDAll addresses every namespace: the controller-wide SMART log, or a
// Format NVM of all namespaces.
const NSIDAll = 0xffffffff

// MaxErrorLogEntries is the most error log entries a controller keeps
// (ELPE is 0's based and one byte).
const MaxErrorLogEntries = 256

// formatTimeout is how long a Format NVM may take when FormatOptions does
// not say; a user-data erase rewrites the whole namespace.
const formatTimeout = 10 * time.Minute

// adminCmd is one admin command: the command dwords and the host buffer
// the controller reads into. The ioctl layer lays it out for the kernel.
type adminCmd struct {
	opcode  uint8
	nsid    uint32
	cdw10   uint32
	cdw11   uint32
	data    []byte
	timeout time.Duration // 0: the kernel's admin timeout
}

// identifyCmd reads an Identify data structure into buf (4096 bytes).
func identifyCmd(cns uint8, nsid uint32, buf []byte) adminCmd {
	return adminCmd{opcode: opIdentify, nsid: nsid, cdw10: uint32(cns), data: buf}
}

// getLogPageCmd reads len(buf) bytes of a log page, from its start, into
// buf. len(buf) must be a positive multiple of 4 (checked by logPageSize).
// Asynchronous events are not retained (RAE 0), as nvme-cli does.
func getLogPageCmd(lid uint8, nsid uint32, buf []byte) adminCmd {
	numd := uint32(len(buf)/4 - 1) // number of dwords, 0's based
	return adminCmd{
		opcode: opGetLogPage, nsid: nsid,
		cdw10: uint32(lid) | (numd&0xffff)<<16,
		cdw11: numd >> 16,
		data:  buf,
	}
}

// maxLogPageSize bounds one Get Log Page transfer; controllers limit a
// transfer to MDTS, typically 128 KiB to 2 MiB.
const maxLogPageSize = 16 << 20

// logPageSize checks a requested log page length.
func logPageSize(size int) error {
	if size <= 0 || size%4 != 0 || size > maxLogPageSize {
		return fmt.Errorf("nvme: log page length %d is not a positive multiple of 4 bytes up to %d", size, maxLogPageSize)
	}
	return nil
}

// errorLogSize returns the bytes of n error log entries.
func errorLogSize(n int) (int, error) {
	if n < 1 || n > MaxErrorLogEntries {
		return 0, fmt.Errorf("nvme: %d error log entries requested; ask for 1 to %d (the controller keeps ELPE+1)",
			n, MaxErrorLogEntries)
	}
	return n * ErrorLogEntrySize, nil
}

// SecureErase is the secure erase setting of Format NVM.
type SecureErase uint8

// Values of SecureErase.
const (
	NoSecureErase SecureErase = 0 // format only, no erase requested
	UserDataErase SecureErase = 1 // erase all user data
	CryptoErase   SecureErase = 2 // destroy the encryption key
)

var secureEraseNames = []string{"no secure erase", "user data erase", "crypto erase"}

// String names the setting, e.g. "crypto erase".
func (s SecureErase) String() string {
	if int(s) < len(secureEraseNames) {
		return secureEraseNames[s]
	}
	return fmt.Sprintf("secure erase setting %d", uint8(s))
}

// FormatOptions are the settings of a Format NVM command. The zero value
// formats with LBA format 0, no metadata settings, no protection
// information and no erase; SameFormat gives the options that keep a
// namespace's current layout.
type FormatOptions struct {
	// LBAFormat is the index into IDNs.LBAFormats to format with.
	LBAFormat uint8
	// ExtendedLBA transfers metadata at the end of each data block
	// (MSET 1) instead of in a separate buffer.
	ExtendedLBA bool
	// ProtectionInfo is the end-to-end protection type: 0 none, 1 to 3
	// types 1 to 3 (PI).
	ProtectionInfo uint8
	// ProtectionFirst places protection information in the first bytes of
	// the metadata instead of the last (PIL).
	ProtectionFirst bool
	// SecureErase asks for an erase of user data with the format.
	SecureErase SecureErase
	// Timeout bounds the command; 0 means 10 minutes.
	Timeout time.Duration
}

// SameFormat returns the options that format the namespace again with
// its current LBA format, metadata and protection settings, with the
// given erase.
func (ns *IDNs) SameFormat(erase SecureErase) FormatOptions {
	return FormatOptions{
		LBAFormat:       uint8(ns.FormatInUse),
		ExtendedLBA:     ns.FLBAS&(1<<4) != 0,
		ProtectionInfo:  ns.DPS & 7,
		ProtectionFirst: ns.DPS&(1<<3) != 0,
		SecureErase:     erase,
	}
}

// formatCmd builds Format NVM for a namespace (NSIDAll for all).
func formatCmd(nsid uint32, opts FormatOptions) (adminCmd, error) {
	if int(opts.LBAFormat) >= maxLBAFs {
		return adminCmd{}, fmt.Errorf("nvme: format: LBA format %d out of range; use an index of IDNs.LBAFormats (0-%d)",
			opts.LBAFormat, maxLBAFs-1)
	}
	if opts.SecureErase > CryptoErase {
		return adminCmd{}, fmt.Errorf("nvme: format: secure erase setting %d unknown; use NoSecureErase, UserDataErase or CryptoErase",
			opts.SecureErase)
	}
	if opts.ProtectionInfo > 3 {
		return adminCmd{}, fmt.Errorf("nvme: format: protection information type %d unknown; use 0 (none) to 3", opts.ProtectionInfo)
	}
	lbaf := uint32(opts.LBAFormat)
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = formatTimeout
	}
	cdw10 := lbaf&0x0f | bit(opts.ExtendedLBA, 4) | uint32(opts.ProtectionInfo)<<5 | bit(opts.ProtectionFirst, 8) |
		uint32(opts.SecureErase)<<9 | (lbaf>>4)<<12
	return adminCmd{opcode: opFormatNVM, nsid: nsid, cdw10: cdw10, timeout: timeout}, nil
}

// SanitizeAction is the SANACT field of Sanitize.
type SanitizeAction uint8

// Values of SanitizeAction.
const (
	SanitizeExitFailureMode SanitizeAction = 1 // leave failure mode after a failed sanitize
	SanitizeBlockErase      SanitizeAction = 2
	SanitizeOverwrite       SanitizeAction = 3
	SanitizeCryptoErase     SanitizeAction = 4
)

var sanitizeActionNames = map[SanitizeAction]string{
	SanitizeExitFailureMode: "exit failure mode", SanitizeBlockErase: "block erase",
	SanitizeOverwrite: "overwrite", SanitizeCryptoErase: "crypto erase",
}

// String names the action, e.g. "block erase".
func (a SanitizeAction) String() string {
	if name, ok := sanitizeActionNames[a]; ok {
		return name
	}
	return fmt.Sprintf("sanitize action %d", uint8(a))
}

// SanitizeOptions are the settings of a Sanitize command.
type SanitizeOptions struct {
	Action SanitizeAction
	// NoDeallocate asks the controller not to deallocate the media after
	// the sanitize, so a following read test sees written blocks.
	NoDeallocate bool
	// AllowUnrestrictedExit lets any command clear a failed sanitize, not
	// only another Sanitize.
	AllowUnrestrictedExit bool
	// OverwritePasses is the number of overwrite passes (1-16; 0 means 1).
	OverwritePasses uint8
	// OverwritePattern is the 32-bit pattern an overwrite writes.
	OverwritePattern uint32
	// InvertPattern inverts the pattern between passes.
	InvertPattern bool
}

// sanitizeCmd builds Sanitize. Sanitize acts on the whole subsystem, so it
// carries no namespace.
func sanitizeCmd(opts SanitizeOptions) (adminCmd, error) {
	if _, ok := sanitizeActionNames[opts.Action]; !ok {
		return adminCmd{}, fmt.Errorf("nvme: sanitize: action %d unknown; use SanitizeBlockErase, SanitizeCryptoErase, SanitizeOverwrite or SanitizeExitFailureMode",
			opts.Action)
	}
	passes := opts.OverwritePasses
	if passes == 0 {
		passes = 1
	}
	if passes > 16 {
		return adminCmd{}, fmt.Errorf("nvme: sanitize: %d overwrite passes requested; the most is 16", passes)
	}
	cdw10 := uint32(opts.Action) | bit(opts.AllowUnrestrictedExit, 3) | bit(opts.InvertPattern, 8) |
		bit(opts.NoDeallocate, 9)
	if opts.Action == SanitizeOverwrite {
		cdw10 |= uint32(passes&0x0f) << 4 // 16 passes encode as 0
	}
	return adminCmd{opcode: opSanitize, cdw10: cdw10, cdw11: opts.OverwritePattern}, nil
}

// bit returns 1<<n when set is true.
func bit(set bool, n uint) uint32 {
	if set {
		return 1 << n
	}
	return 0
}

// sanitizePollInterval is how often WaitSanitize reads the sanitize log.
const sanitizePollInterval = time.Second

// waitSanitize reads the sanitize status log every interval until the
// operation ends, reporting progress to poll (which may be nil).
func waitSanitize(ctx context.Context, read func() (*SanitizeLog, error), interval time.Duration,
	poll func(progress float64)) (*SanitizeLog, error) {
	for {
		log, err := read()
		if err != nil {
			return nil, err
		}
		if done, err := sanitizeDone(log); done || err != nil {
			if err == nil && poll != nil {
				poll(1)
			}
			return log, err
		}
		if poll != nil {
			poll(log.Progress())
		}
		if err := ctxtime.Sleep(ctx, interval); err != nil {
			return log, fmt.Errorf("nvme: waiting for sanitize (%.0f%% done; it continues in the controller): %w",
				100*log.Progress(), err)
		}
	}
}

// sanitizeDone reports whether the sanitize in the log has ended, and an
// error when it ended badly.
func sanitizeDone(log *SanitizeLog) (bool, error) {
	switch s := log.Status(); s {
	case SanitizeInProgress:
		return false, nil
	case SanitizeCompleted, SanitizeCompletedDeallocated:
		return true, nil
	case SanitizeFailed:
		return true, errors.New("nvme: sanitize failed; the controller is in sanitize failure mode until another sanitize (or SanitizeExitFailureMode) succeeds")
	default:
		return true, fmt.Errorf("nvme: sanitize status log says %q; no sanitize is running", s)
	}
}
