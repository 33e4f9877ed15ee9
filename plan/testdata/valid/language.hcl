# Every part of the language beyond the basics: locals, validation,
# functions, for_each, dynamic blocks, mixes, spec sheets from an included
# file, modules, rate curves, repeats, steady state, purge, rates and data.
include  = ["lib/*.hcl"]
on_error = "abort"

variable "targets" {
  type    = map(string)
  default = { a = "/dev/nvme0n1", b = "/dev/nvme1n1" }
}
variable "rounds" {
  type    = number
  default = 3
  validation {
    condition     = var.rounds >= 2
    error_message = "rounds is at least 2."
  }
}
variable "stop" {
  default = null
}

locals {
  region  = "${local.share}%"
  share   = 50
  seconds = parse_duration("2s")
}

testbed "lab" {
  parallel = true
  engine   = "fio"
  hosts    = ["10.0.0.2:8765", "[fd00::2]:8765"]
}

drive "nvme" {
  for_each   = var.targets
  path       = each.value
  writable   = true
  spec_sheet = "acme-a1"
  spec {
    p99_read = { lat_us = 250, rw = "randread", bs = "4KiB", state = "steady" }
  }
}

precondition "erase" {
  pattern     = "purge"
  method      = "sanitize-crypto"
  destructive = true
  drives      = ["nvme.a"]
}

precondition "fill" {
  pattern = "sequential_write"
  passes  = 2
}

profile "mixes" {
  for_each = ["web", "sql-90-10"]
  mix      = each.value
  iodepth  = 16
  runtime  = local.seconds
  size     = local.region
  engine   = "native"

  dynamic "rate_curve" {
    for_each = each.value == "web" ? [1] : []
    content {
      percents = [50, 100]
    }
  }
}

profile "rounds" {
  preconditions = ["fill"]
  rw            = "read"
  bs            = mib(1)
  runtime       = 1
  sweep {
    iodepth = pow2(1, 2)
  }
  repeat {
    rounds = var.rounds
    keep   = 2
    use    = "last"
  }
}

profile "steady" {
  preconditions = ["erase", "fill"]
  drives        = ["nvme.a"]
  rw            = "randrw"
  runtime       = "1s"
  sweep {
    read_pct = [0, 70]
  }
  steady_state {
    metric     = "p99"
    window     = 2
    max_rounds = 3
    track      = { read_pct = 0 }
  }
}

profile "shaped" {
  rw           = "randwrite"
  random_pct   = 75
  bs_split     = { "4KiB" = 50, "64KiB" = 50 }
  rate_iops    = 20000
  arrival      = "poisson"
  data         = "compressible"
  compress_pct = 50
  verify       = true
  io_size      = "300%"
  runtime      = "10m"
}

profile "capped" {
  rw         = "randrw"
  read_pct   = 90
  rate_bw    = "500MB/s"
  dedupe_pct = 30
  data       = "dedupe"
  runtime    = "5s"
}

module "suite" {
  source = "modules/suite.hcl"
  drives = ["nvme.b"]
  depth  = 8
}
