# CrystalDiskMark's (and KDiskMark's) tests as a plan, in its two presets:
#
#   standard  SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1
#   nvme      SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1
#
# Each test reads, then writes, a 1 GiB test file for 5 seconds, 5 times
# over, and reports the best of the 5 runs, as CrystalDiskMark does. Like
# CrystalDiskMark, it tests a file: by default a scratch file in the
# results folder, so it runs on any machine without touching a device.
#
#   drivebench run examples/crystaldiskmark/crystaldiskmark.hcl
#   drivebench run -var preset=nvme -var target=/mnt/nvme/cdm.bin examples/crystaldiskmark/crystaldiskmark.hcl

variable "preset" {
  description = "The set of tests: standard or nvme."
  default     = "standard"
  validation {
    condition     = contains(["standard", "nvme"], var.preset)
    error_message = "preset is \"standard\" or \"nvme\", as in CrystalDiskMark's settings."
  }
}

variable "target" {
  description = "Test file or block device; empty for a scratch file in the results folder."
  default     = ""
}

variable "size" {
  description = "Size of the test file."
  default     = "1GiB"
}

variable "runtime" {
  description = "Measured time of each run."
  default     = "5s"
}

variable "interval" {
  description = "Idle time between tests, as CrystalDiskMark's interval."
  default     = "5s"
}

variable "loops" {
  description = "Runs of each test; the best one counts."
  type        = number
  default     = 5
  validation {
    condition     = var.loops >= 1 && var.loops <= 9
    error_message = "loops is from 1 to 9, as in CrystalDiskMark."
  }
}

locals {
  tests = {
    "SEQ1M-Q8T1"    = { sequential = true, bs = "1MiB", iodepth = 8, numjobs = 1 }
    "SEQ1M-Q1T1"    = { sequential = true, bs = "1MiB", iodepth = 1, numjobs = 1 }
    "SEQ128K-Q32T1" = { sequential = true, bs = "128KiB", iodepth = 32, numjobs = 1 }
    "RND4K-Q32T1"   = { sequential = false, bs = "4KiB", iodepth = 32, numjobs = 1 }
    "RND4K-Q32T16"  = { sequential = false, bs = "4KiB", iodepth = 32, numjobs = 16 }
    "RND4K-Q1T1"    = { sequential = false, bs = "4KiB", iodepth = 1, numjobs = 1 }
  }
  presets = {
    standard = ["SEQ1M-Q8T1", "SEQ1M-Q1T1", "RND4K-Q32T1", "RND4K-Q1T1"]
    nvme     = ["SEQ1M-Q8T1", "SEQ128K-Q32T1", "RND4K-Q32T16", "RND4K-Q1T1"]
  }
}

drive "test-file" {
  path     = var.target
  size     = var.size
  writable = true
}

# CrystalDiskMark writes its test file before measuring, so reads read data.
precondition "prepare" {
  pattern = "sequential_write"
  bs      = "1MiB"
  iodepth = 8
  direct  = true
}

profile "cdm" {
  for_each = local.presets[var.preset]

  bs      = local.tests[each.key].bs
  iodepth = local.tests[each.key].iodepth
  numjobs = local.tests[each.key].numjobs
  runtime = var.runtime
  direct  = true
  # CrystalDiskMark idles between tests, and gives every test in MB/s.
  pause    = var.interval
  headline = "bw"

  sweep {
    rw = local.tests[each.key].sequential ? ["read", "write"] : ["randread", "randwrite"]
  }

  repeat {
    rounds = var.loops
    keep   = 1
    use    = "best"
  }
}
