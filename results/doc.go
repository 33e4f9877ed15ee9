// Package results owns the results folder: the record of a run that
// outlives the run. Measurements are the product, so every file here is
// written atomically (temporary file, fsync, rename, fsync of the folder)
// and the journal marks a step done only after its record is safely on
// disk. Reports are regenerated from this folder alone; nothing in it
// needs the drive, the plan file or the engine.
//
// Layout:
//
//	manifest.json     the plan, testbed, drives and steps of the run
//	journal.jsonl     one line per finished step and per start and end of a
//	                  run in the folder, append-only
//	steps/<id>.json   one Record per step, named by the step's content ID
//	steps/<id>.fio    the job file of a step run by fio
//	steps/<id>.stdout the output of an external command's step (and .stderr)
//	series/<step>.csv a step's interval series, written with its record
//	fio-logs/         the same series in fio's log format, on request
//	health/<drive>.json  NVMe identity and SMART before and after the run
//	damaged/<id>.json damaged records a resumed run moved aside
//	summary.json      sections a report's summary hook added
//	work-<drive>/     the working folder of external commands on a scratch drive
//	report.*          reports rendered from the above
//	drivebench.lock   the lock of the process writing the folder (Lock)
//
// docs/architecture.md documents every file's fields and schema.
package results
