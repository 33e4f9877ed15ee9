package catalog

// A drive the catalog knows no model of (an import of fio's outputs made
// without -model, a scratch file whose plan declares none) is a drive of
// its own in each run: grouped with others under an empty name it would
// read as one model, "(4 drives)", and its figures as that model's. Every
// view names it by its run instead, as its own group, and a drive without
// a serial likewise.

// modelLabel is the model a view shows for a drive of run runID: its
// model, or "(unidentified drive, run <id>)" when it has none.
func modelLabel(model, runID string) string {
	if model != "" {
		return model
	}
	return "(unidentified drive, run " + runID + ")"
}

// serialLabel is the serial a view shows: the drive's serial, or "(no
// serial, run <id>)".
func serialLabel(serial, runID string) string {
	if serial != "" {
		return serial
	}
	return "(no serial, run " + runID + ")"
}
