//go:build linux

package blockdev

import (
	"reflect"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestParseMountinfo(t *testing.T) {
	in := `22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard

36 35 98:0 /mnt1 /mnt/with\040space rw,noatime master:1 shared:2 - ext3 /dev/root rw,errors=continue
`
	got, err := parseMountinfo(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []mountEntry{
		{dev: unix.Mkdev(0, 21), point: "/proc", fstype: "proc", source: "proc"},
		{dev: unix.Mkdev(254, 0), point: "/", fstype: "ext4", source: "/dev/vda"},
		{dev: unix.Mkdev(98, 0), point: "/mnt/with space", fstype: "ext3", source: "/dev/root"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestParseMountinfoErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"22 27 0:21 / /proc rw,relatime proc proc rw\n", `line 1: "22 27 0:21 / /proc rw,relatime proc proc rw" has no "- fstype source" part`},
		{"27 1 254:0 / / rw - ext4 /dev/vda rw\n22 27 x:y / /p rw - proc proc rw\n", `line 2: device number "x:y" is not major:minor`},
		{"1 2 3:4 / / rw -\n", "line 1"},
	}
	for _, tt := range tests {
		_, err := parseMountinfo(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseMountinfo(%q): err = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestParseSwaps(t *testing.T) {
	in := "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/zram0                              partition\t1048572\t\t0\t\t100\n/swap\\040file file 4 0 -2\n"
	got, err := parseSwaps(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/dev/zram0", "/swap file"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestUnescapeOctal(t *testing.T) {
	for in, want := range map[string]string{
		`/plain`: "/plain", `/a\040b`: "/a b", `/tab\011x`: "/tab\tx", `/back\134slash`: `/back\slash`,
		`/short\04`: `/short\04`, `/not\999`: `/not\999`, `\`: `\`,
	} {
		if got := unescapeOctal(in); got != want {
			t.Errorf("unescapeOctal(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseMountinfo(f *testing.F) {
	f.Add("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n")
	f.Add("1 2 3:4 / / rw -\n")
	f.Add(`1 2 3:4 / /a\040b rw - x \134 y` + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		mounts, err := parseMountinfo(strings.NewReader(in))
		if err == nil && len(mounts) > strings.Count(in, "\n")+1 {
			t.Fatalf("%d mounts from %d lines", len(mounts), strings.Count(in, "\n")+1)
		}
		_, _ = parseSwaps(strings.NewReader(in))
	})
}
