package nvme

import (
	"reflect"
	"strings"
	"testing"
)

func TestLookupPurge(t *testing.T) {
	for _, name := range PurgeMethods() {
		m, err := lookupPurge(name)
		if err != nil || m.name != name {
			t.Errorf("lookupPurge(%q) = %+v, %v", name, m, err)
		}
	}
	_, err := lookupPurge("secure-erase")
	if err == nil || !strings.Contains(err.Error(), `"secure-erase" unknown`) || !strings.Contains(err.Error(), "sanitize-block, sanitize-crypto") {
		t.Errorf("unknown method: err = %v", err)
	}
}

func TestSupportedPurgeMethods(t *testing.T) {
	qemu, err := DecodeIDCtrl(readFixture(t, "qemu-nvme-id-ctrl.bin"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		ctrl *IDCtrl
		want []string
	}{
		{"QEMU 7.2: format only", qemu, []string{"format"}},
		{"nothing", &IDCtrl{}, nil},
		{"block and crypto sanitize, format with crypto erase",
			&IDCtrl{SANICAP: SanicapBlock | SanicapCrypto, OACS: OACSFormat, FNA: FNACryptoErase},
			[]string{"sanitize-block", "sanitize-crypto", "format", "format-crypto"}},
		{"crypto erase attribute without Format NVM", &IDCtrl{SANICAP: SanicapOverwrite, FNA: FNACryptoErase},
			[]string{"sanitize-overwrite"}},
	}
	for _, tt := range tests {
		if got := SupportedPurgeMethods(tt.ctrl); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestPurgeSupportNamesTheMethodAndTheCapabilities: the error says what
// was asked, what the controller reports and what it supports instead.
func TestPurgeSupportNamesTheMethodAndTheCapabilities(t *testing.T) {
	qemu, err := DecodeIDCtrl(readFixture(t, "qemu-nvme-id-ctrl.bin"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method string
		ctrl   *IDCtrl
		want   []string
	}{
		{PurgeFormat, qemu, nil},
		{PurgeSanitizeBlock, qemu, []string{"purge sanitize-block on /dev/nvme0n1", "QEMU NVMe Ctrl",
			"does not support sanitize (block erase)", "SANICAP: none", "it supports format"}},
		{PurgeFormatCrypto, qemu, []string{"format nvm (crypto erase)", "FNA: none"}},
		{PurgeFormat, &IDCtrl{MN: "Old"}, []string{"OACS: none", "it supports none of them"}},
	}
	for _, tt := range tests {
		m, err := lookupPurge(tt.method)
		if err != nil {
			t.Fatal(err)
		}
		err = checkPurgeSupport(tt.ctrl, m, "/dev/nvme0n1")
		if tt.want == nil {
			if err != nil {
				t.Errorf("%s: %v", tt.method, err)
			}
			continue
		}
		for _, want := range tt.want {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: err = %v, want it to contain %q", tt.method, err, want)
			}
		}
	}
}

func TestPurgeScopeAndSettings(t *testing.T) {
	ns := &IDNs{FLBAS: 0x04, FormatInUse: 4}
	format, _ := lookupPurge(PurgeFormat)
	if opts := purgeFormatOptions(format, ns); opts.LBAFormat != 4 || opts.SecureErase != UserDataErase || opts.Timeout != purgeFormatTimeout {
		t.Errorf("format options %+v", opts)
	}
	overwrite, _ := lookupPurge(PurgeSanitizeOverwrite)
	c, err := sanitizeCmd(purgeSanitizeOptions(overwrite))
	if err != nil || c.cdw10 != 0x13 || c.cdw11 != 0 {
		t.Errorf("overwrite purge: cdw10 %#x cdw11 %#x, %v; want one pass of zeroes (0x13, 0)", c.cdw10, c.cdw11, err)
	}
	scopes := []struct {
		method string
		fna    FormatAttrs
		whole  bool
	}{
		{PurgeFormat, 0, false},
		{PurgeFormat, FNAFormatAll, true},
		{PurgeFormatCrypto, FNAEraseAll | FNACryptoErase, true},
		{PurgeSanitizeCrypto, 0, true},
	}
	for _, s := range scopes {
		m, _ := lookupPurge(s.method)
		if got := m.wholeSubsystem(&IDCtrl{FNA: s.fna}); got != s.whole {
			t.Errorf("%s with FNA %v: whole subsystem %v, want %v", s.method, s.fna, got, s.whole)
		}
	}
}
