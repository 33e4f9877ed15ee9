package nvme

import (
	"fmt"
	"time"
)

// ErrorLogEntry is one entry of the Error Information log (LID 01h).
// JSON tags follow nvme-cli.
type ErrorLogEntry struct {
	ErrorCount uint64 `json:"error_count"` // unique, increasing error number; 0 = empty entry
	SQID       uint16 `json:"sqid"`        // submission queue of the failed command
	CMDID      uint16 `json:"cmdid"`       // command identifier of the failed command
	// StatusField is the completion status without the phase tag:
	// SC in bits 7:0, SCT in bits 10:8, DNR in bit 14.
	StatusField  Status `json:"status_field"`
	PhaseTag     uint8  `json:"phase_tag"`
	ParmErrLoc   uint16 `json:"parm_err_loc"` // byte and bit of the command field in error
	LBA          uint64 `json:"lba"`          // first LBA of the failed access
	NSID         uint32 `json:"nsid"`
	VS           uint8  `json:"vs"`     // vendor-specific log page with more information
	TRType       uint8  `json:"trtype"` // transport type
	CS           uint64 `json:"cs"`     // command-specific information
	TRTypeSpInfo uint16 `json:"trtype_spec_info"`
}

// DecodeErrorLog decodes an Error Information log of one or more 64-byte
// entries. Empty entries (error count 0) are left out, so the result holds
// only errors, newest first as the controller lists them.
func DecodeErrorLog(b []byte) ([]ErrorLogEntry, error) {
	if len(b) < ErrorLogEntrySize {
		return nil, &ShortPageError{Page: "error information log", Got: len(b), Want: ErrorLogEntrySize}
	}
	if len(b)%ErrorLogEntrySize != 0 {
		return nil, fmt.Errorf("nvme: error information log is %d bytes, not a whole number of %d-byte entries",
			len(b), ErrorLogEntrySize)
	}
	var entries []ErrorLogEntry
	for off := 0; off < len(b); off += ErrorLogEntrySize {
		e := decodeErrorEntry(page(b[off : off+ErrorLogEntrySize]))
		if e.ErrorCount != 0 {
			entries = append(entries, e)
		}
	}
	return entries, nil
}

func decodeErrorEntry(p page) ErrorLogEntry {
	status := p.u16(12)
	return ErrorLogEntry{
		ErrorCount: p.u64(0), SQID: p.u16(8), CMDID: p.u16(10),
		StatusField: Status(status >> 1), PhaseTag: uint8(status & 1), ParmErrLoc: p.u16(14),
		LBA: p.u64(16), NSID: p.u32(24), VS: p.u8(28), TRType: p.u8(29),
		CS: p.u64(32), TRTypeSpInfo: p.u16(40),
	}
}

// FwSlotLog is the Firmware Slot Information log (LID 03h).
type FwSlotLog struct {
	AFI uint8 `json:"afi"` // active firmware info
	// ActiveSlot is the slot of the running firmware (1-7).
	ActiveSlot int `json:"active_slot"`
	// NextResetSlot is the slot activated at the next reset, 0 if none.
	NextResetSlot int `json:"next_reset_slot"`
	// Slots are the firmware revisions in slots 1-7; "" for an empty or
	// unsupported slot.
	Slots [7]string `json:"slots"`
}

// DecodeFwSlotLog decodes a Firmware Slot Information log (512 bytes).
func DecodeFwSlotLog(b []byte) (*FwSlotLog, error) {
	p, err := newPage("firmware slot log", b, FwSlotLogSize)
	if err != nil {
		return nil, err
	}
	afi := p.u8(0)
	log := &FwSlotLog{AFI: afi, ActiveSlot: int(afi & 7), NextResetSlot: int(afi>>4) & 7}
	for i := range log.Slots {
		log.Slots[i] = p.ascii(8+8*i, 8)
	}
	return log, nil
}

// ActiveRevision returns the firmware revision in the active slot.
func (l *FwSlotLog) ActiveRevision() string {
	if l.ActiveSlot < 1 || l.ActiveSlot > len(l.Slots) {
		return ""
	}
	return l.Slots[l.ActiveSlot-1]
}

// SanitizeStatus is the state of the most recent sanitize operation
// (SSTAT bits 2:0).
type SanitizeStatus uint8

// Values of SanitizeStatus.
const (
	SanitizeNeverRun   SanitizeStatus = 0 // the subsystem has never been sanitized
	SanitizeCompleted  SanitizeStatus = 1 // the most recent sanitize completed successfully
	SanitizeInProgress SanitizeStatus = 2
	SanitizeFailed     SanitizeStatus = 3 // the controller is in sanitize failure mode
	// SanitizeCompletedDeallocated means a sanitize that asked for no
	// deallocation completed, but the controller deallocated anyway.
	SanitizeCompletedDeallocated SanitizeStatus = 4
)

var sanitizeStatusNames = []string{"never sanitized", "completed", "in progress", "failed",
	"completed with deallocation"}

// String describes the status, e.g. "in progress".
func (s SanitizeStatus) String() string {
	if int(s) < len(sanitizeStatusNames) {
		return sanitizeStatusNames[s]
	}
	return fmt.Sprintf("unknown sanitize status %d", uint8(s))
}

// SanitizeLog is the Sanitize Status log (LID 81h). Estimated times are in
// seconds; NoEstimate means the controller gives none. JSON tags follow
// nvme-cli.
type SanitizeLog struct {
	SPROG uint16 `json:"sprog"` // progress of the running sanitize, in 1/65536
	SSTAT uint16 `json:"sstat"` // status, overwrite passes done, global data erased
	// SCDW is the CDW10 of the sanitize command that started the most
	// recent operation.
	SCDW   uint32 `json:"cdw10_info"`
	ETO    uint32 `json:"time_over_write"`
	ETBE   uint32 `json:"time_block_erase"`
	ETCE   uint32 `json:"time_crypto_erase"`
	ETOND  uint32 `json:"time_over_write_no_dealloc"`
	ETBEND uint32 `json:"time_block_erase_no_dealloc"`
	ETCEND uint32 `json:"time_crypto_erase_no_dealloc"`
}

// NoEstimate marks an estimated time the controller does not report.
const NoEstimate = 0xffffffff

// DecodeSanitizeLog decodes a Sanitize Status log (512 bytes).
func DecodeSanitizeLog(b []byte) (*SanitizeLog, error) {
	p, err := newPage("sanitize status log", b, SanitizeLogSize)
	if err != nil {
		return nil, err
	}
	return &SanitizeLog{
		SPROG: p.u16(0), SSTAT: p.u16(2), SCDW: p.u32(4),
		ETO: p.u32(8), ETBE: p.u32(12), ETCE: p.u32(16),
		ETOND: p.u32(20), ETBEND: p.u32(24), ETCEND: p.u32(28),
	}, nil
}

// Status returns the state of the most recent sanitize operation.
func (l *SanitizeLog) Status() SanitizeStatus { return SanitizeStatus(l.SSTAT & 7) }

// Progress returns the fraction done (0 to 1) of a running sanitize, 1 once
// it has completed and 0 when none has run or it failed.
func (l *SanitizeLog) Progress() float64 {
	switch l.Status() {
	case SanitizeInProgress:
		return float64(l.SPROG) / 65536
	case SanitizeCompleted, SanitizeCompletedDeallocated:
		return 1
	}
	return 0
}

// OverwritePasses returns the number of overwrite passes completed.
func (l *SanitizeLog) OverwritePasses() int { return int(l.SSTAT>>3) & 0x1f }

// GlobalDataErased reports whether no user data has been written since
// the last sanitize or since manufacture.
func (l *SanitizeLog) GlobalDataErased() bool { return l.SSTAT&(1<<8) != 0 }

// Estimate returns the controller's estimate of how long a sanitize with
// the action takes, and false when it gives none.
func (l *SanitizeLog) Estimate(action SanitizeAction, noDeallocate bool) (time.Duration, bool) {
	var secs uint32 = NoEstimate
	switch action {
	case SanitizeOverwrite:
		secs = pick(noDeallocate, l.ETOND, l.ETO)
	case SanitizeBlockErase:
		secs = pick(noDeallocate, l.ETBEND, l.ETBE)
	case SanitizeCryptoErase:
		secs = pick(noDeallocate, l.ETCEND, l.ETCE)
	}
	if secs == NoEstimate {
		return 0, false
	}
	return time.Duration(secs) * time.Second, true
}

func pick(cond bool, yes, no uint32) uint32 {
	if cond {
		return yes
	}
	return no
}
