package workload

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// FileServices are the file selections of a file set (the file_service
// parameter): fio's file_service_type values drivebench runs. "zipf"
// takes a skew, "zipf:1.2".
var FileServices = []string{"sequential", "roundrobin", "random", "zipf:THETA"}

// FileService is a parsed file selection: Kind is one of sequential,
// roundrobin, random and zipf; Theta is zipf's skew.
type FileService struct {
	Kind  string
	Theta float64
}

// ParseFileService reads a file_service value; "" is sequential.
func ParseFileService(s string) (FileService, error) {
	kind, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	switch kind {
	case "":
		return FileService{Kind: "sequential"}, nil
	case "sequential", "roundrobin", "random":
		if hasArg {
			return FileService{}, fmt.Errorf("%q: only zipf takes a value after a colon", s)
		}
		return FileService{Kind: kind}, nil
	case "zipf":
		theta, err := strconv.ParseFloat(arg, 64)
		if !hasArg || err != nil || !(theta > 0) || theta > 100 {
			return FileService{}, fmt.Errorf("%q: zipf needs a skew above 0 and at most 100 after a colon, such as \"zipf:1.2\"", s)
		}
		return FileService{Kind: kind, Theta: theta}, nil
	}
	return FileService{}, fmt.Errorf("%q is not a file selection; use %s", s, strings.Join(FileServices, ", "))
}

// FileSetName is the folder a workload's file set lives in, inside the
// folder its engine is given: named after the set's shape (files, their
// sizes, the subfolders), so every step with the same set uses the same
// files, and a step with another set never mistakes them for its own.
func (w *Workload) FileSetName() string {
	return fmt.Sprintf("set-%d-%016x", w.Files, w.FileSetHash())
}

// FileSetHash identifies a set's shape; it seeds the set's file sizes.
func (w *Workload) FileSetHash() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%d", w.Files, w.FileSize, max(1, w.Dirs))
	for _, s := range w.FileSizes {
		fmt.Fprintf(h, "/%d:%g", s.Size, s.Weight)
	}
	return h.Sum64()
}

// FileSizeOf is the size of the file set's file number k (from 0): the
// fixed FileSize, or one drawn from the FileSizes distribution by the
// set's own stream, so every step that uses the set sees the same sizes.
// pick draws a number in [0, 100).
func (w *Workload) FileSizeOf(pick func() float64) int64 {
	if len(w.FileSizes) == 0 {
		return w.FileSize
	}
	x, acc := pick(), 0.0
	for _, s := range w.FileSizes {
		if acc += s.Weight; x < acc {
			return s.Size
		}
	}
	return w.FileSizes[len(w.FileSizes)-1].Size
}

// FileSetBytes is the expected size of the whole set: the files times
// their size, or their mean size for a distribution.
func (w *Workload) FileSetBytes() int64 {
	if len(w.FileSizes) == 0 {
		return int64(w.Files) * w.FileSize
	}
	var mean float64
	for _, s := range w.FileSizes {
		mean += float64(s.Size) * s.Weight / 100
	}
	return int64(float64(w.Files) * mean)
}
