package results

import (
	"cmp"
	"strings"
)

// Slug is the part of a file name of the results folder that a name
// gives: its letters and digits, lower-cased, with the runs between them
// joined by hyphens ("nvme0 / 4K Random Read / iodepth=16" ->
// "nvme0-4k-random-read-iodepth-16"). Charts, interval series and fio's
// logs are named by it, so a name reads the same in every file it gives.
func Slug(name string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if gap && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			gap = false
		} else {
			gap = true
		}
	}
	return cmp.Or(b.String(), "x")
}
