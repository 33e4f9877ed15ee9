# StorageReview's "VDBench workload analysis", written once and applied to
# any drive with a module block:
#
#   module "vdbench" {
#     source  = "../modules/storagereview-vdbench.hcl"
#     threads = { "4k-random-read" = 128, "64k-sequential-read" = 32 }
#   }
#
# The method: fill the whole drive with data, then test a region of 25 % of
# its capacity (not a full-entropy steady state, so sustained writes come
# out higher). Every profile runs as a rate curve ("0-120 % iorate"): first
# without a limit to find the drive's maximum, then at 10 %, 20 %, ...,
# 120 % of it, reporting IOPS, bandwidth and mean latency per step.
#
# vdbench's threads are outstanding I/Os against one device, which is
# iodepth here with a single job: the slots share the job's sequential
# cursor as vdbench's threads share a sequential stream.
#
# The SQL, Oracle and VDI workloads are vendor-private vdbench profiles;
# they run here as drivebench's shipped mixes of the same names, which
# approximate them (see docs/plan-language.md, "Shipped mixes").

variable "threads" {
  description = "Outstanding I/Os of each four-corners profile, by name; a name with -high is the high-load variant. Leave a profile out to skip it."
  type        = map(number)
  validation {
    condition     = alltrue([for name, n in var.threads : can(regex("^(4k-random|64k-sequential)-(read|write)(-high)?$", name)) && n >= 1])
    error_message = "Each key of threads is 4k-random-read, 4k-random-write, 64k-sequential-read or 64k-sequential-write, optionally with -high, and each value is at least 1."
  }
}

variable "mixes" {
  description = "The database and VDI mixes to run, in order."
  type        = list(string)
  default = [
    "sql", "sql-90-10", "sql-80-20",
    "oracle", "oracle-90-10", "oracle-80-20",
    "vdi-fc-boot", "vdi-fc-initial-login", "vdi-fc-monday-login",
    "vdi-lc-boot", "vdi-lc-initial-login", "vdi-lc-monday-login",
  ]
}

variable "mix_threads" {
  description = "Outstanding I/Os of the database and VDI mixes (the reviews do not publish them)."
  type        = number
  default     = 64
}

variable "curve" {
  description = "Percentages of the measured maximum that each curve steps through."
  type        = list(number)
  default     = range_pct(10, 120, 10)
}

variable "region" {
  description = "The share of the drive the profiles run on, after the whole drive is filled."
  default     = "25%"
}

variable "runtime" {
  description = "Measured time of each curve step."
  default     = "1m"
}

variable "ramp" {
  description = "Warm-up of each curve step, not measured."
  default     = "10s"
}

locals {
  # The four corners, by name without the -high suffix.
  corners = {
    "4k-random-read"       = { rw = "randread", bs = "4KiB" }
    "4k-random-write"      = { rw = "randwrite", bs = "4KiB" }
    "64k-sequential-read"  = { rw = "read", bs = "64KiB" }
    "64k-sequential-write" = { rw = "write", bs = "64KiB" }
  }
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "128KiB"
  iodepth = 32
  direct  = true
}

profile "corners" {
  for_each = var.threads

  rw      = local.corners[trimsuffix(each.key, "-high")].rw
  bs      = local.corners[trimsuffix(each.key, "-high")].bs
  iodepth = each.value
  size    = var.region
  runtime = var.runtime
  ramp    = var.ramp
  direct  = true

  rate_curve {
    percents = var.curve
  }
}

profile "mixes" {
  for_each = var.mixes

  mix     = each.value
  iodepth = var.mix_threads
  size    = var.region
  runtime = var.runtime
  ramp    = var.ramp
  direct  = true

  rate_curve {
    percents = var.curve
  }
}
