// Package metrics is the measurement model shared by every engine and every
// report: a log-linear latency histogram, per-direction statistics, a
// per-second time series and the Result record of one engine run.
//
// The histogram uses fio's bucket layout exactly (64 buckets per power of
// two, values in nanoseconds) so that the clat_ns.bins of fio's json+
// output map one to one onto our buckets: results from the built-in engine,
// from fio, from several workers and from several hosts are merged by adding
// counts, and percentiles are always read from merged histograms, never
// averaged. The package imports nothing else of drivebench.
package metrics
