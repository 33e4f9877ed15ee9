# Tom's Hardware's review of the KIOXIA CD6-V (PCIe 4.0), as a plan: the
# drive is written twice over before every test, then
#
#   1. IOPS: random access at 16 workers x QD32 over a matrix of 8 block
#      sizes x 7 read shares;
#   2. sequential 128 KiB reads and writes, 10 rounds each, the last 5
#      averaged;
#   3. latency against load: 4 KiB random at 100/0, 70/30 and 0/100 read
#      shares, from 1 worker x QD1 to 16 workers x QD64, a latency ladder
#      per share with the mean, p99 and p99.99;
#   4. write saturation: 4 KiB random writes for 6 hours at 4 x QD32, with
#      IOPS and latency over time.
#
#   drivebench plan -var target=/dev/nvme0n1 examples/thg-cd6v/thg-cd6v.hcl
#
# A quick run on a scratch file, scaled down by a variable file:
#
#   drivebench run -var-file examples/thg-cd6v/smoke.vars.hcl examples/thg-cd6v/thg-cd6v.hcl

include = ["../drives/*.hcl"]

variable "target" {
  description = "Block device to test (its data is destroyed); empty for a scratch file, which then needs a size."
  type        = string
}

variable "size" {
  description = "Capacity to test; 0 for the whole device."
  default     = 0
}

variable "spec_sheet" {
  description = "Spec sheet the drive is held to, from examples/drives."
  default     = "kioxia-cd6-v"
}

variable "runtime" {
  description = "Measured time of each IOPS, sequential and latency step."
  default     = "1m"
}

variable "ramp" {
  description = "Warm-up of each step."
  default     = "10s"
}

variable "saturation" {
  description = "Length of the write-saturation run."
  default     = "6h"
}

variable "workers" {
  description = "Workers of the IOPS test, each with queue_depth I/Os outstanding."
  type        = number
  default     = 16
}

variable "queue_depth" {
  description = "Queue depth of each worker in the IOPS test."
  type        = number
  default     = 32
}

variable "block_sizes" {
  description = "Block sizes of the IOPS matrix; leave out 512B on a drive or file system with 4 KiB sectors, where direct I/O cannot do it."
  type        = list(string)
  default     = ["1MiB", "128KiB", "64KiB", "32KiB", "16KiB", "8KiB", "4KiB", "512B"]
}

locals {
  read_shares = [100, 95, 65, 50, 35, 5, 0]
}

testbed "h12ssl" {
  description = "Open bench, 80 mm fan; the drive on a U.2-to-PCIe adapter"
  facts = {
    board = "Supermicro H12SSL-i"
    cpu   = "AMD EPYC, 2nd generation (Rome)"
    link  = "PCIe 4.0"
  }
}

drive "dut" {
  path       = var.target
  size       = var.size
  writable   = true
  spec_sheet = var.spec_sheet
}

# Written twice over before every test.
precondition "fill" {
  pattern = "sequential_write"
  bs      = "128KiB"
  iodepth = 32
  direct  = true
  passes  = 2
}

profile "iops" {
  preconditions = ["fill"]
  rw            = "randrw"
  numjobs       = var.workers
  iodepth       = var.queue_depth
  runtime       = var.runtime
  ramp          = var.ramp
  direct        = true

  sweep {
    bs       = var.block_sizes
    read_pct = local.read_shares
  }
}

profile "sequential" {
  preconditions = ["fill"]
  bs            = "128KiB"
  iodepth       = 32
  runtime       = var.runtime
  ramp          = var.ramp
  direct        = true

  sweep {
    rw = ["read", "write"]
  }

  repeat {
    rounds = 10
    keep   = 5
    use    = "last"
  }
}

profile "latency" {
  preconditions = ["fill"]
  rw            = "randrw"
  bs            = "4KiB"
  runtime       = var.runtime
  ramp          = var.ramp
  direct        = true

  # The ladder as the review steps it: one worker up to QD32, then more
  # workers at QD32, then QD64; one latency line per read share.
  sweep {
    read_pct = [100, 70, 0]
    points = [
      { numjobs = 1, iodepth = 1 },
      { numjobs = 1, iodepth = 2 },
      { numjobs = 1, iodepth = 4 },
      { numjobs = 1, iodepth = 8 },
      { numjobs = 1, iodepth = 16 },
      { numjobs = 1, iodepth = 32 },
      { numjobs = 2, iodepth = 32 },
      { numjobs = 4, iodepth = 32 },
      { numjobs = 8, iodepth = 32 },
      { numjobs = 16, iodepth = 32 },
      { numjobs = 16, iodepth = 64 },
    ]
  }
}

profile "write-saturation" {
  preconditions = ["fill"]
  rw            = "randwrite"
  bs            = "4KiB"
  numjobs       = 4
  iodepth       = 32
  runtime       = var.saturation
  direct        = true
}

# Tom's Hardware quotes bandwidth in MiB/s and latency tails to p99.99.
report {
  units       = "MiB/s"
  percentiles = [50, 99, 99.99]
}
