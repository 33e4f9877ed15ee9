# MLPerf Storage's checkpoint shapes as a checkpoint step: each rank
# writes its file of the model's checkpoint and flushes it, the page
# cache is dropped and each rank reads its file back, pass after pass.
# The report gives each pass's seconds (the slowest rank's) and
# bandwidth (the lowest rank's and the aggregate), for the write and
# the read-back, and their mean, as StorageReview publishes DLIO's
# checkpointing over 3 passes. The files lie in a folder of the file
# system under test and are removed when the run completes (kept while
# it is unfinished, so an interrupted run resumes at its next pass).
#
#   drivebench run -var directory=/mnt/nvme0/mlperf -var model=llama3-70b -var scale=0.01 examples/ai/checkpoint.hcl
#
# Scaled down to seconds on a scratch folder:
#
#   drivebench run -var-file examples/ai/smoke.vars.hcl examples/ai/checkpoint.hcl
#
# A drive's claim is judged on every pass: with -var max_write_s=30 -var
# min_read_gbps=2, a pass whose slowest rank wrote for more than 30 s, or
# read back at less than 2 GB/s, fails the run (exit code 1).

variable "directory" {
  description = "Folder on the file system under test for the checkpoint's files."
  default     = "/tmp/drivebench-ai"
}

variable "model" {
  description = "The checkpoint's model: llama3-8b (105 GB over 8 ranks), llama3-70b (912 GB, 64), llama3-405b (5.29 TB, 512) or llama3-1t (18 TB, 1024)."
  default     = "llama3-8b"
}

variable "scale" {
  description = "Share of the checkpoint's size each pass writes: 1 is MLPerf Storage's own."
  type        = number
  default     = 0.1
}

variable "passes" {
  description = "Passes, each a write and a read-back; StorageReview runs 3."
  type        = number
  default     = 3
}

variable "max_write_s" {
  description = "The most seconds a write pass may take (its slowest rank's); the default only catches a stalled run."
  type        = number
  default     = 3600
}

variable "min_read_gbps" {
  description = "The least GB/s (decimal) the slowest rank must read back at in each pass; 0 judges nothing."
  type        = number
  default     = 0
}

testbed "local" {
  description = "the machine this runs on"
}

drive "fs" {
  directory = var.directory
  writable  = true
}

checkpoint "checkpoint" {
  preset = var.model
  scale  = var.scale
  passes = var.passes
  expect = [
    result.checkpoint.write.slowest_job_s <= var.max_write_s,
    result.checkpoint.read.lowest_job_bw >= var.min_read_gbps * 1e9,
  ]
}
