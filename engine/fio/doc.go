// Package fio runs drivebench workloads with fio and reads fio's results
// into drivebench's measurement model, so a plan can switch between the
// built-in engine and fio with one attribute and get the same records,
// and results of runs made with fio alone can be reviewed like any other.
//
// It has four parts, each in its own file:
//
//   - jobfile.go and layout.go translate a workload.Workload into a fio job
//     file. Every workload attribute fio can express is translated; one it
//     cannot is an *UntranslatableError before anything runs (Translatable
//     checks a workload at validate time, JobFile against its target).
//   - parse.go and merge.go read fio's JSON and json+ output, tolerating
//     the text fio mixes into it and output cut short by a killed fio, and
//     merge jobs exactly: counts and bytes add, json+ bins add into one
//     metrics.Histogram (fio's bucket layout is ours), means are weighted
//     by sample counts and standard deviations pooled. runs.go reads an
//     output of several runs appended one after another, telling a run's
//     status reports from the next run by their jobs' runtimes, and names
//     the line, column and byte of a report it cannot read.
//   - driver.go, stream.go, series.go and hosts.go run fio as a
//     driver.Driver: locally, or on several hosts running `fio --server`
//     through fio's client mode, with a per-host breakdown and a
//     cluster-wide merge; live samples come from fio's status reports and
//     the time series from its interval logs.
//   - importer.go turns existing fio outputs into a results folder;
//     importworkload.go reads each step's workload back from its job's
//     options through the rows of workload.Options, the way jobfile.go
//     writes them, so an imported step's record holds what it ran.
//
// # Latency
//
// drivebench's latency is measured from the submission of an I/O to its
// completion. fio splits it into slat (submission) and clat (completion
// after submission) and reports the total as lat. A direction's latency
// figures always come from one fio measure, so that mean, extremes and
// percentiles describe the same distribution: lat when fio recorded its
// histogram (lat_percentiles=1, which every job file this package writes
// sets), otherwise clat, fio's default, whose percentiles an import then
// reproduces exactly. For synchronous engines (psync) fio's clat and lat
// differ by a few hundred nanoseconds of bookkeeping.
//
// Under a rate limit fio measures latency from the actual submission, not
// from the moment the I/O was due as the native engine does, so fio hides
// the queueing of a device that cannot keep up with the rate.
package fio
