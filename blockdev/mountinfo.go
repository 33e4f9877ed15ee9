//go:build linux

package blockdev

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// mountEntry is one line of /proc/self/mountinfo.
type mountEntry struct {
	dev    uint64 // st_dev of the mounted filesystem
	point  string // mount point
	fstype string
	source string // e.g. /dev/sdb1; btrfs and others report an anonymous dev, so this is checked too
}

// parseMountinfo reads the mount table format of proc(5):
//
//	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
func parseMountinfo(r io.Reader) ([]mountEntry, error) {
	var mounts []mountEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		m, err := parseMountLine(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("mountinfo line %d: %w", line, err)
		}
		mounts = append(mounts, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read mountinfo: %w", err)
	}
	return mounts, nil
}

// parseMountLine parses one mountinfo line.
func parseMountLine(text string) (mountEntry, error) {
	fields := strings.Fields(text)
	sep := -1
	for i := 6; i < len(fields); i++ {
		if fields[i] == "-" {
			sep = i
			break
		}
	}
	if sep < 0 || sep+2 >= len(fields) {
		return mountEntry{}, fmt.Errorf("%q has no \"- fstype source\" part", text)
	}
	dev, err := parseDevNum(fields[2])
	if err != nil {
		return mountEntry{}, err
	}
	return mountEntry{
		dev: dev, point: unescapeOctal(fields[4]),
		fstype: fields[sep+1], source: unescapeOctal(fields[sep+2]),
	}, nil
}

// parseSwaps reads the file names of active swap areas from /proc/swaps,
// whose first line is a header.
func parseSwaps(r io.Reader) ([]string, error) {
	var names []string
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if line == 1 || len(fields) == 0 {
			continue
		}
		names = append(names, unescapeOctal(fields[0]))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read swaps: %w", err)
	}
	return names, nil
}

// unescapeOctal undoes the kernel's \ooo escapes of blanks and
// backslashes in paths.
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1:i+4]) {
			v, _ := strconv.ParseUint(s[i+1:i+4], 8, 8)
			b.WriteByte(byte(v))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isOctal reports whether s is three octal digits no larger than \377.
func isOctal(s string) bool {
	return s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7'
}
