package results

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// HealthDir holds one file per drive with what the drive reported about
// itself (NVMe identity and SMART/health snapshots) before and after the
// run. The content is the device layer's JSON, kept as it is.
const HealthDir = "health"

// WriteHealth stores the health document of a drive atomically.
func (f *Folder) WriteHealth(drive string, v any) error {
	if err := os.MkdirAll(filepath.Join(f.Dir, HealthDir), 0o755); err != nil {
		return err
	}
	return WriteJSONAtomic(filepath.Join(f.Dir, HealthDir, drive+".json"), v)
}

// Health returns the stored health documents by drive name.
func (f *Folder) Health() (map[string]json.RawMessage, error) {
	entries, err := os.ReadDir(filepath.Join(f.Dir, HealthDir))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]json.RawMessage{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	for _, e := range entries {
		drive, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || strings.HasPrefix(drive, ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(f.Dir, HealthDir, e.Name()))
		if err != nil {
			return nil, err
		}
		if !json.Valid(data) {
			return nil, errors.New(filepath.Join(HealthDir, e.Name()) + ": not valid JSON")
		}
		out[drive] = data
	}
	return out, nil
}
