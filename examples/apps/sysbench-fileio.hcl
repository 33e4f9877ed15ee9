# sysbench's file I/O test on the drive under test: sysbench creates its
# test files in a folder on the drive's file system, runs each access mode
# at each thread count, and removes its files. A parse hook turns each
# run's output into metrics (reads/s, writes/s, MiB/s, latency), which the
# expectation judges and the report shows beside the synthetic profiles.
#
#   drivebench run -var directory=/mnt/nvme0/bench examples/apps/sysbench-fileio.hcl
#
# A quick run on the file system of the results folder:
#
#   drivebench run -var runtime=2 -var file_size=256M -var 'modes=["rndrw"]' -var 'threads=[1]' \
#     examples/apps/sysbench-fileio.hcl
#
# Needs sysbench (Debian: apt-get install sysbench).

variable "directory" {
  description = "Folder on the file system under test; empty for a folder in the results folder, removed afterwards."
  default     = ""
}

variable "file_size" {
  description = "Total size of sysbench's test files, in sysbench's units (K, M, G); larger than the page cache for a disk-bound test."
  default     = "4G"
}

variable "files" {
  description = "How many files the total size is split into."
  type        = number
  default     = 8
}

variable "modes" {
  description = "sysbench's access modes: seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw."
  type        = list(string)
  default     = ["rndrd", "rndwr", "rndrw", "seqrd"]
}

variable "threads" {
  description = "Thread counts to run each mode with."
  type        = list(number)
  default     = [1, 8]
}

variable "block_size" {
  description = "Block size of the requests, in bytes."
  type        = number
  default     = 4096
}

variable "direct" {
  description = "Open the files with O_DIRECT, bypassing the page cache."
  type        = bool
  default     = true
}

variable "runtime" {
  description = "Seconds each run lasts."
  type        = number
  default     = 60
}

variable "p99_limit_ms" {
  description = "The 99th percentile latency each run must stay under, in ms."
  type        = number
  default     = 50
}

locals {
  files = ["--file-total-size=${var.file_size}", "--file-num=${var.files}"]
  # The runs by name, such as "rndrw-8t", in the order of the lists.
  run_names = [for pair in setproduct(var.modes, var.threads) : "${pair[0]}-${pair[1]}t"]
  runs = {
    for pair in setproduct(var.modes, var.threads) :
    "${pair[0]}-${pair[1]}t" => { mode = pair[0], threads = pair[1] }
  }
  flags = var.direct ? ["--file-extra-flags=direct"] : []
}

drive "fs" {
  directory = var.directory == "" ? null : var.directory
  writable  = true
}

exec "prepare" {
  command = concat(["sysbench", "fileio"], local.files, ["prepare"])
  timeout = "1h"
}

exec "fileio" {
  for_each = local.run_names

  command = concat(["sysbench", "fileio"], local.files, local.flags, [
    "--file-test-mode=${local.runs[each.key].mode}",
    "--file-block-size=${var.block_size}",
    "--threads=${local.runs[each.key].threads}",
    "--time=${var.runtime}",
    "--percentile=99",
    "run",
  ])
  timeout = "${var.runtime + 300}s"
  parse   = { script = "hooks/sysbench.star", function = "fileio" }
  expect  = [result.metrics.latency_p99_ms < var.p99_limit_ms]
}

exec "cleanup" {
  command = concat(["sysbench", "fileio"], local.files, ["cleanup"])
}

report {
  summary = { script = "hooks/summary.star", function = "applications" }
}
