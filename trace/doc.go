// Package trace reads block I/O traces: what a real application asked of
// a drive, I/O by I/O, so that it can be characterized (Stat, Mix) and
// replayed. One reader per format, behind one stream:
//
//   - fio iolog version 2 and 3 (fio's write_iolog; v3 has microseconds
//     since the start, v2 has none: its I/Os all come at 0, or after its
//     wait lines);
//   - blkparse binary (blkparse -d): 48-byte blk_io_trace records in
//     either byte order, the issue (D) events as I/Os, the completion (C)
//     events giving their latency;
//   - MSR Cambridge, Alibaba and Tencent CBS CSV, the public traces of
//     SNIA IOTTA and their publishers.
//
// Why it is built this way:
//
//   - Streaming, bounded memory. Public traces run to tens of gigabytes
//     (fio's users report it running out of memory on large ones). Open
//     reads nothing ahead but a buffer; Next decodes one I/O at a time;
//     what a reader must hold (the issued I/Os of a blkparse trace
//     waiting for their completion) has a fixed bound. Stat keeps
//     histograms and fixed tables, never the I/Os.
//   - The format is detected from the content, not the file name: the
//     traces come named usr_0.csv, 2018-10-01-01 or sda.blktrace.0, and
//     a header line or a magic number says what they are (Detect).
//   - One model. Every reader gives IO values in bytes and time since the
//     trace's first I/O, so nothing after it knows a sector, a FILETIME
//     or a microsecond.
//   - Errors name the place: the line of a text trace, the byte offset
//     of a binary one, and what is wrong there (Error).
//
// StartCapture records a Linux block device's I/Os from tracefs's block
// events and writes them as fio iolog v3 (WriteIolog), so fio replays
// what drivebench captured and drivebench what fio logged.
package trace
