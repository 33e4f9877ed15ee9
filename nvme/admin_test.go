package nvme

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// sameCmd compares two commands field by field, the data buffer by
// identity and length.
func sameCmd(t *testing.T, got, want adminCmd) {
	t.Helper()
	fields := []struct {
		name      string
		got, want uint64
	}{
		{"opcode", uint64(got.opcode), uint64(want.opcode)},
		{"nsid", uint64(got.nsid), uint64(want.nsid)},
		{"cdw10", uint64(got.cdw10), uint64(want.cdw10)},
		{"cdw11", uint64(got.cdw11), uint64(want.cdw11)},
		{"data length", uint64(len(got.data)), uint64(len(want.data))},
		{"timeout", uint64(got.timeout), uint64(want.timeout)},
	}
	for _, f := range fields {
		if f.got != f.want {
			t.Errorf("%s = %#x, want %#x", f.name, f.got, f.want)
		}
	}
	if len(got.data) > 0 && len(want.data) > 0 && &got.data[0] != &want.data[0] {
		t.Error("command does not read into the caller's buffer")
	}
}

func TestIdentifyCmd(t *testing.T) {
	buf := make([]byte, IDCtrlSize)
	sameCmd(t, identifyCmd(cnsController, 0, buf), adminCmd{opcode: 0x06, nsid: 0, cdw10: 0x01, data: buf})
	sameCmd(t, identifyCmd(cnsNamespace, 3, buf), adminCmd{opcode: 0x06, nsid: 3, cdw10: 0x00, data: buf})
}

func TestGetLogPageCmd(t *testing.T) {
	tests := []struct {
		name         string
		lid          uint8
		nsid         uint32
		size         int
		cdw10, cdw11 uint32
	}{
		// NUMD is 0's based: 512 bytes = 128 dwords -> 127 (0x7f) in bits 31:16.
		{"smart", LogSmart, NSIDAll, 512, 0x007f_0002, 0},
		{"error log, 64 entries", LogError, NSIDAll, 64 * 64, 0x03ff_0001, 0},
		{"sanitize", LogSanitize, NSIDAll, 512, 0x007f_0081, 0},
		// 256 KiB = 65536 dwords -> NUMDL 0xffff, NUMDU 0.
		{"256 KiB", 0xc0, 1, 256 << 10, 0xffff_00c0, 0},
		// 256 KiB + 4 = 65537 dwords -> 65536: NUMDL 0, NUMDU 1.
		{"past NUMDL", 0xc0, 1, 256<<10 + 4, 0x0000_00c0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := logPageSize(tt.size); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, tt.size)
			sameCmd(t, getLogPageCmd(tt.lid, tt.nsid, buf),
				adminCmd{opcode: 0x02, nsid: tt.nsid, cdw10: tt.cdw10, cdw11: tt.cdw11, data: buf})
		})
	}
	for _, bad := range []int{0, -4, 6, 32 << 20} {
		if err := logPageSize(bad); err == nil {
			t.Errorf("logPageSize(%d) accepted", bad)
		}
	}
}

func TestErrorLogSize(t *testing.T) {
	if size, err := errorLogSize(16); err != nil || size != 1024 {
		t.Errorf("errorLogSize(16) = %d, %v; want 1024", size, err)
	}
	for _, bad := range []int{0, 257} {
		if _, err := errorLogSize(bad); err == nil || !strings.Contains(err.Error(), "1 to 256") {
			t.Errorf("errorLogSize(%d): err = %v", bad, err)
		}
	}
}

func TestFormatCmd(t *testing.T) {
	tests := []struct {
		name    string
		nsid    uint32
		opts    FormatOptions
		cdw10   uint32
		timeout time.Duration
		wantErr string
	}{
		{name: "format 1, no erase", nsid: 1, opts: FormatOptions{LBAFormat: 1}, cdw10: 0x001, timeout: 10 * time.Minute},
		{name: "user data erase", nsid: 1, opts: FormatOptions{LBAFormat: 4, SecureErase: UserDataErase}, cdw10: 0x204, timeout: 10 * time.Minute},
		{name: "crypto erase, all namespaces", nsid: NSIDAll, opts: FormatOptions{SecureErase: CryptoErase, Timeout: time.Hour}, cdw10: 0x400, timeout: time.Hour},
		{name: "format 17 uses the upper bits", nsid: 2, opts: FormatOptions{LBAFormat: 17}, cdw10: 0x1001, timeout: 10 * time.Minute},
		{name: "extended LBA, protection type 2 first", nsid: 1,
			opts:  FormatOptions{LBAFormat: 1, ExtendedLBA: true, ProtectionInfo: 2, ProtectionFirst: true},
			cdw10: 0x151, timeout: 10 * time.Minute},
		{name: "format 64", opts: FormatOptions{LBAFormat: 64}, wantErr: "LBA format 64 out of range"},
		{name: "protection type 4", opts: FormatOptions{ProtectionInfo: 4}, wantErr: "protection information type 4 unknown"},
		{name: "unknown erase", opts: FormatOptions{SecureErase: 3}, wantErr: "secure erase setting 3 unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := formatCmd(tt.nsid, tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sameCmd(t, c, adminCmd{opcode: 0x80, nsid: tt.nsid, cdw10: tt.cdw10, timeout: tt.timeout})
		})
	}
}

// TestSameFormat: a namespace formatted with LBA format 5, metadata at
// the end of each block and type 1 protection in the first bytes keeps
// all of that through a purge.
func TestSameFormat(t *testing.T) {
	ns := &IDNs{FLBAS: 0x15, DPS: 0x09, FormatInUse: 5}
	got := ns.SameFormat(UserDataErase)
	want := FormatOptions{LBAFormat: 5, ExtendedLBA: true, ProtectionInfo: 1, ProtectionFirst: true, SecureErase: UserDataErase}
	if got != want {
		t.Errorf("SameFormat = %+v, want %+v", got, want)
	}
	c, err := formatCmd(1, got)
	if err != nil || c.cdw10 != 0x335 {
		t.Errorf("cdw10 = %#x, %v; want 0x335", c.cdw10, err)
	}
}

func TestSanitizeCmd(t *testing.T) {
	tests := []struct {
		name         string
		opts         SanitizeOptions
		cdw10, cdw11 uint32
		wantErr      string
	}{
		{name: "block erase", opts: SanitizeOptions{Action: SanitizeBlockErase}, cdw10: 0x002},
		{name: "crypto erase, no deallocate", opts: SanitizeOptions{Action: SanitizeCryptoErase, NoDeallocate: true}, cdw10: 0x204},
		{name: "overwrite, default one pass", opts: SanitizeOptions{Action: SanitizeOverwrite, OverwritePattern: 0xdeadbeef},
			cdw10: 0x013, cdw11: 0xdeadbeef},
		{name: "overwrite, 16 inverted passes, unrestricted exit",
			opts:  SanitizeOptions{Action: SanitizeOverwrite, OverwritePasses: 16, InvertPattern: true, AllowUnrestrictedExit: true},
			cdw10: 0x10b},
		{name: "exit failure mode", opts: SanitizeOptions{Action: SanitizeExitFailureMode}, cdw10: 0x001},
		{name: "no action", opts: SanitizeOptions{}, wantErr: "action 0 unknown"},
		{name: "17 passes", opts: SanitizeOptions{Action: SanitizeOverwrite, OverwritePasses: 17}, wantErr: "the most is 16"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := sanitizeCmd(tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sameCmd(t, c, adminCmd{opcode: 0x84, cdw10: tt.cdw10, cdw11: tt.cdw11})
		})
	}
}

// sanitizeLogs returns a reader that yields the given SSTAT/SPROG states
// in turn and counts the reads.
func sanitizeLogs(states ...SanitizeLog) (func() (*SanitizeLog, error), *int) {
	reads := 0
	return func() (*SanitizeLog, error) {
		if reads >= len(states) {
			return nil, errors.New("read past the last state")
		}
		log := states[reads]
		reads++
		return &log, nil
	}, &reads
}

func TestWaitSanitize(t *testing.T) {
	read, reads := sanitizeLogs(
		SanitizeLog{SSTAT: 2, SPROG: 0},
		SanitizeLog{SSTAT: 2, SPROG: 0x8000},
		SanitizeLog{SSTAT: 1 | 1<<8, SPROG: 0xffff},
	)
	var progress []float64
	log, err := waitSanitize(context.Background(), read, 0, func(p float64) { progress = append(progress, p) })
	if err != nil {
		t.Fatal(err)
	}
	if log.Status() != SanitizeCompleted || *reads != 3 {
		t.Errorf("status %v after %d reads, want completed after 3", log.Status(), *reads)
	}
	if want := []float64{0, 0.5, 1}; !slices.Equal(progress, want) {
		t.Errorf("progress %v, want %v", progress, want)
	}
}

func TestWaitSanitizeEnds(t *testing.T) {
	tests := []struct {
		name    string
		state   SanitizeLog
		wantErr string
	}{
		{"completed with deallocation", SanitizeLog{SSTAT: 4}, ""},
		{"failed", SanitizeLog{SSTAT: 3}, "sanitize failure mode"},
		{"never sanitized", SanitizeLog{SSTAT: 0}, "no sanitize is running"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read, _ := sanitizeLogs(tt.state)
			_, err := waitSanitize(context.Background(), read, 0, nil)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestWaitSanitizeCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	read, reads := sanitizeLogs(SanitizeLog{SSTAT: 2, SPROG: 0x4000})
	log, err := waitSanitize(ctx, read, time.Hour, nil)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "25% done") {
		t.Errorf("err = %v, want context.Canceled with the progress", err)
	}
	if log == nil || *reads != 1 {
		t.Errorf("log %v after %d reads, want the last log after 1", log, *reads)
	}
}

func TestStatusString(t *testing.T) {
	tests := []struct {
		status Status
		want   string
	}{
		{0x0002, "0x0002 (invalid field in command)"},
		{0x010a, "0x010a (invalid format)"},
		{0x401d, "0x401d (sanitize in progress)"},
		{0x0371, "0x0371 (status code type 3, status code 0x71)"},
	}
	for _, tt := range tests {
		if got := tt.status.String(); got != tt.want {
			t.Errorf("Status(%#x) = %q, want %q", uint16(tt.status), got, tt.want)
		}
	}
	err := &StatusError{Op: "format nvm", Path: "/dev/nvme0", Status: 0x410a}
	if got := err.Error(); !strings.Contains(got, "format nvm on /dev/nvme0") || !strings.Contains(got, "invalid format") ||
		!strings.Contains(got, "retrying will not help") {
		t.Errorf("StatusError = %q", got)
	}
}
