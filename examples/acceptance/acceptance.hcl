# Acceptance test: does a drive meet its spec sheet? Four profiles run at
# the conditions spec sheets quote (128 KiB sequential, 4 KiB random), and a
# check compares each result with every figure of the drive's sheet for the
# same pattern. A figure met within the tolerance passes; a figure missed
# fails, unless the sheet states conditions the test did not reproduce (a
# queue depth, a drive state, a PCIe generation), when it warns and says
# which.
#
#   drivebench run -var target=/dev/nvme0n1 -var spec_sheet=sk-hynix-pe6011-1.92tb \
#     examples/acceptance/acceptance.hcl
#
# A quick run on a scratch file (the figures will not be met):
#
#   drivebench run -var target= -var size=256MiB -var runtime=1s -var ramp=0s \
#     examples/acceptance/acceptance.hcl

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
  description = "Spec sheet the drive must meet, from examples/drives."
  default     = "kioxia-cd6-r"
}

variable "pcie_gen" {
  description = "PCIe generation of the slot the drive is in, to pick the sheet's figures for that link."
  type        = number
  default     = 4
}

variable "tolerance_pct" {
  description = "How far below a figure a result may be and still pass, in percent."
  type        = number
  default     = 5
  validation {
    condition     = var.tolerance_pct >= 0 && var.tolerance_pct < 100
    error_message = "tolerance_pct is a percentage from 0 to below 100."
  }
}

variable "runtime" {
  description = "Measured time of each profile."
  default     = "1m"
}

variable "ramp" {
  description = "Warm-up of each profile."
  default     = "15s"
}

variable "sequential_depth" {
  description = "Queue depth of the sequential profiles."
  type        = number
  default     = 32
}

variable "random_depth" {
  description = "Queue depth per job of the random profiles (PE6011's sheet: 64)."
  type        = number
  default     = 64
}

variable "random_jobs" {
  description = "Jobs of the random profiles."
  type        = number
  default     = 4
}

locals {
  profiles = {
    "seq-read-128k"  = { rw = "read", bs = "128KiB", metric = "bw" }
    "seq-write-128k" = { rw = "write", bs = "128KiB", metric = "bw" }
    "rand-read-4k"   = { rw = "randread", bs = "4KiB", metric = "iops" }
    "rand-write-4k"  = { rw = "randwrite", bs = "4KiB", metric = "iops" }
  }
}

drive "dut" {
  path       = var.target
  size       = var.size
  writable   = true
  spec_sheet = var.spec_sheet
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "128KiB"
  iodepth = 32
  direct  = true
  passes  = 2
}

profile "spec" {
  for_each = ["seq-read-128k", "seq-write-128k", "rand-read-4k", "rand-write-4k"]

  rw      = local.profiles[each.key].rw
  bs      = local.profiles[each.key].bs
  iodepth = local.profiles[each.key].metric == "bw" ? var.sequential_depth : var.random_depth
  numjobs = local.profiles[each.key].metric == "bw" ? 1 : var.random_jobs
  runtime = var.runtime
  ramp    = var.ramp
  direct  = true
}

check "meets-spec" {
  for_each = local.profiles

  script   = "checks/spec.star"
  function = "meets_spec"
  profile  = "spec.${each.key}"
  args = {
    rw            = each.value.rw
    bs            = parse_size(each.value.bs)
    metric        = each.value.metric
    iodepth       = each.value.metric == "bw" ? var.sequential_depth : var.random_depth
    numjobs       = each.value.metric == "bw" ? 1 : var.random_jobs
    state         = "fresh"
    pcie_gen      = var.pcie_gen
    tolerance_pct = var.tolerance_pct
  }
}
