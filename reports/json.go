package reports

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// WriteJSON writes the Summary as report.json: indented, with field names
// and meanings fixed by SchemaVersion and documented in
// docs/report-json.md. HTML characters are written as they are.
func WriteJSON(w io.Writer, s *Summary) error {
	if s == nil {
		return errors.New("write JSON report: no summary to write")
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return nil
}
