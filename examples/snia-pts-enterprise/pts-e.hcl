# The SNIA Solid State Storage Performance Test Specification, enterprise
# tests, as a plan. Each test starts from a purged drive: purge, then the
# workload-independent preconditioning (128 KiB sequential writes of twice
# the capacity), then rounds of the test's own workload until steady state:
#
#   IOPS        random, 8 block sizes x 7 read/write mixes = 56 points a
#               round, one minute each; steady when the 4 KiB 100 % write
#               IOPS of the last 5 rounds stays within 20 % of their mean
#               (range) and 10 % (slope); at most 25 rounds
#   throughput  sequential 1024 KiB and 128 KiB, writes then reads, steady
#               on the write bandwidth
#   latency     0.5, 4 and 8 KiB x 100/0, 65/35, 0/100 at 1 job x QD1,
#               steady on the 4 KiB 100 % write mean latency
#   write saturation
#               random 4 KiB writes until 4x the capacity is written or 24
#               hours pass, with IOPS over time
#
# The engine stops a steady-state test at the round that reaches steady
# state; drivebench plan counts every round up to the maximum. PTS also
# asks for the drive's volatile write cache to be off: the drive's
# volatile_write_cache = false switches it off for the run (NVMe Set
# Features) and back on after it. A purge needs an NVMe device, so target
# is required.
#
#   drivebench plan -var target=/dev/nvme0n1 examples/snia-pts-enterprise/pts-e.hcl
#
# A quick run on a small NVMe namespace, every test scaled down to
# seconds by a variable file (the QEMU tier in e2e/qemu runs it on an
# emulated controller):
#
#   drivebench run -var target=/dev/nvme0n1 -var-file examples/snia-pts-enterprise/smoke.vars.hcl examples/snia-pts-enterprise/pts-e.hcl

include = ["../drives/*.hcl"]

variable "target" {
  description = "NVMe namespace to test; everything on it is erased."
  type        = string
  validation {
    condition     = can(regex("^/dev/", var.target))
    error_message = "A purge needs a device: give target as /dev/nvmeXnY."
  }
}

variable "size" {
  description = "Capacity to test; 0 for the whole device (PTS: 100 % of the LBA range)."
  default     = 0
}

variable "spec_sheet" {
  description = "Spec sheet the drive is held to, from examples/drives; null for none."
  type        = string
  default     = null
}

variable "purge_method" {
  description = "How the drive is purged: sanitize-block, sanitize-crypto, sanitize-overwrite, format or format-crypto."
  default     = "format"
}

variable "workers" {
  description = "Thread count (TC) of the IOPS and throughput tests."
  type        = number
  default     = 4
}

variable "queue_depth" {
  description = "Outstanding I/Os per thread (OIO) of the IOPS and throughput tests."
  type        = number
  default     = 32
}

variable "runtime" {
  description = "Measured time of each test point in a round."
  default     = "1m"
}

variable "max_rounds" {
  description = "Rounds after which a test that has not reached steady state stops."
  type        = number
  default     = 25
}

variable "saturation" {
  description = "Time bound of the write-saturation test; it also stops once it has written 4x the capacity."
  default     = "24h"
}

variable "iops_block_sizes" {
  description = "Block sizes of the IOPS test; steady state is tracked at 4KiB, which must stay in."
  type        = list(string)
  default     = ["1024KiB", "128KiB", "64KiB", "32KiB", "16KiB", "8KiB", "4KiB", "512B"]
}

variable "iops_read_shares" {
  description = "Read shares (percent) of the IOPS test; steady state is tracked at 0, which must stay in."
  type        = list(number)
  default     = [100, 95, 65, 50, 35, 5, 0]
}

variable "latency_block_sizes" {
  description = "Block sizes of the latency test; steady state is tracked at 4KiB, which must stay in."
  type        = list(string)
  default     = ["512B", "4KiB", "8KiB"]
}

variable "latency_read_shares" {
  description = "Read shares (percent) of the latency test; steady state is tracked at 0, which must stay in."
  type        = list(number)
  default     = [100, 65, 0]
}

drive "dut" {
  path       = var.target
  size       = var.size
  writable   = true
  spec_sheet = var.spec_sheet
  # PTS runs with the volatile write cache off (restored after the run).
  volatile_write_cache = false
}

precondition "purge" {
  pattern     = "purge"
  method      = var.purge_method
  destructive = true
}

# Workload-independent preconditioning: twice the capacity, 128 KiB
# sequential writes.
precondition "wipc" {
  pattern = "sequential_write"
  bs      = "128KiB"
  iodepth = 32
  direct  = true
  passes  = 2
}

profile "iops" {
  preconditions = ["purge", "wipc"]
  rw            = "randrw"
  numjobs       = var.workers
  iodepth       = var.queue_depth
  runtime       = var.runtime
  direct        = true

  sweep {
    bs       = var.iops_block_sizes
    read_pct = var.iops_read_shares
  }

  steady_state {
    metric        = "iops"
    window        = 5
    max_rounds    = var.max_rounds
    excursion_pct = 20
    slope_pct     = 10
    track         = { bs = "4KiB", read_pct = 0 }
  }
}

profile "throughput" {
  for_each = ["1024KiB", "128KiB"]

  preconditions = ["purge", "wipc"]
  bs            = each.value
  numjobs       = var.workers
  iodepth       = var.queue_depth
  runtime       = var.runtime
  direct        = true

  sweep {
    rw = ["write", "read"]
  }

  steady_state {
    metric     = "bw"
    max_rounds = var.max_rounds
    track      = { rw = "write" }
  }
}

profile "latency" {
  preconditions = ["purge", "wipc"]
  rw            = "randrw"
  numjobs       = 1
  iodepth       = 1
  runtime       = var.runtime
  direct        = true

  sweep {
    bs       = var.latency_block_sizes
    read_pct = var.latency_read_shares
  }

  steady_state {
    metric     = "mean"
    max_rounds = var.max_rounds
    track      = { bs = "4KiB", read_pct = 0 }
  }
}

profile "write-saturation" {
  preconditions = ["purge"]
  rw            = "randwrite"
  bs            = "4KiB"
  numjobs       = var.workers
  iodepth       = var.queue_depth
  io_size       = "400%"
  runtime       = var.saturation
  direct        = true
}
