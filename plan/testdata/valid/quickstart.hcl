variable "target" {
  default     = ""
  description = "Block device or file to test; empty for a scratch file in the results folder."
}
variable "size"    { default = "1GiB" }
variable "runtime" { default = "10s" }

testbed "local" { description = "the machine this runs on" }

drive "scratch" {
  path     = var.target
  size     = var.size
  writable = true
  spec {
    rand_read_4k = { iops = 1000000, bs = "4KiB", iodepth = 32, numjobs = 4 }
  }
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "128KiB"
  passes  = 2
}

profile "4k-random-read" {
  rw      = "randread"
  bs      = "4KiB"
  numjobs = 1
  runtime = var.runtime
  ramp    = "2s"
  direct  = true
  sweep { iodepth = [1, 4, 16] }
}

profile "64k-seq-write" {
  rw      = "write"
  bs      = "64KiB"
  iodepth = 4
  runtime = var.runtime
  direct  = true
}

check "latency" {
  script   = "checks/latency.star"
  function = "p99_under"
  profile  = "4k-random-read"
  args     = { limit_us = 5000 }
}

report { formats = ["markdown", "json"] }
