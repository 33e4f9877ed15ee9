package exec

import (
	"io"
	"os"
	"strings"
)

// ReadTail returns up to the last limit bytes of the file at path, and
// whether the file held more. A parse hook gets the end of a very long
// output, where benchmarks print their summaries.
func ReadTail(path string, limit int64) (string, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", false, err
	}
	offset := max(info.Size()-limit, 0)
	data, err := io.ReadAll(io.NewSectionReader(f, offset, info.Size()-offset))
	return string(data), offset > 0, err
}

// LastLines returns the last n lines of text, without their line ends
// and without the empty line after a final newline.
func LastLines(text string, n int) []string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, "\r")
	}
	return lines
}
