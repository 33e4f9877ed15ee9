# The quickstart: a scratch file stands in for a drive, so this runs on any
# machine without root and without touching a device.
#
#   drivebench run examples/quickstart.hcl
#   drivebench run -var target=/dev/nvme0n1 -var size=0 examples/quickstart.hcl   # a real drive (destroys its data)

variable "target" {
  default     = ""
  description = "Block device or file to test; empty for a scratch file in the results folder."
}

variable "size" {
  default     = "1GiB"
  description = "Capacity to test; 0 for the whole device or file."
}

variable "runtime" {
  default     = "10s"
  description = "Measured time of each profile point."
}

testbed "local" {
  description = "the machine this runs on"
}

drive "scratch" {
  path     = var.target
  size     = var.size
  writable = true

  spec {
    rand_read_4k = { iops = 1000000, rw = "randread", bs = "4KiB", iodepth = 32, numjobs = 4 }
  }
}

# Write the whole drive twice so reads hit written blocks, not holes.
precondition "fill" {
  pattern = "sequential_write"
  bs      = "128KiB"
  iodepth = 4
  direct  = true
  passes  = 2
}

profile "4k-random-read" {
  rw      = "randread"
  bs      = "4KiB"
  numjobs = 1
  runtime = var.runtime
  ramp    = "2s"
  direct  = true

  sweep {
    iodepth = [1, 4, 16]
  }
}

profile "64k-seq-write" {
  rw      = "write"
  bs      = "64KiB"
  iodepth = 4
  runtime = var.runtime
  ramp    = "2s"
  direct  = true
}

check "latency" {
  script   = "checks/latency.star"
  function = "p99_under"
  profile  = "4k-random-read"
  args     = { limit_us = 20000 }
}

report {
  formats = ["markdown", "json", "html"]
}
