# Vendor acceptance: does a drive meet its spec sheet, figure by figure?
# The profiles measure at the conditions spec sheets quote (128 KiB
# sequential, 4 KiB random over a matrix of queue depths and jobs), and the
# accept block compares every figure of the drive's sheet with the
# measurement closest to its conditions. The report lists each figure with
# its claim, the measurement, their ratio, a verdict and the reason, and
# says where the test's conditions differ from the sheet's: a depth beyond
# the matrix, another block size, a drive that was not in the stated
# state. Figures for another PCIe generation than pcie_gen, and figures
# drivebench does not measure (endurance, power), are listed as skipped.
#
#   drivebench run -var target=/dev/nvme0n1 -var spec_sheet=kioxia-cm9-r-15.36tb -var pcie_gen=5 \
#     examples/acceptance/vendor-acceptance.hcl
#
# On a scratch file (the figures will not be met, and the report says by
# how much):
#
#   drivebench run -var target= -var size=256MiB -var runtime=1s -var ramp=0s \
#     examples/acceptance/vendor-acceptance.hcl

include = ["../drives/*.hcl"]

variable "target" {
  description = "Block device to test (its data is destroyed); empty for a scratch file, which then needs a size."
  type        = string
}

variable "size" {
  description = "Capacity to test, such as \"256MiB\"; 0 for the whole device."
  type        = string
  default     = "0"
}

variable "spec_sheet" {
  description = "Spec sheet the drive must meet, from examples/drives."
  default     = "kioxia-cd6-r"
}

variable "pcie_gen" {
  description = "PCIe generation of the slot the drive is in: the sheet's figures for other links are skipped."
  type        = number
  default     = 4
}

variable "tolerance_pct" {
  description = "How far below a figure a result may be and still pass, in percent."
  type        = number
  default     = 5
}

variable "runtime" {
  description = "Measured time of each point."
  default     = "1m"
}

variable "ramp" {
  description = "Warm-up of each point."
  default     = "15s"
}

variable "sequential_depths" {
  description = "Queue depths of the sequential profiles."
  type        = list(number)
  default     = [8, 32]
}

variable "random_depths" {
  description = "Queue depths per job of the random profiles."
  type        = list(number)
  default     = [1, 8, 32, 64]
}

variable "random_jobs" {
  description = "Job counts of the random profiles."
  type        = list(number)
  default     = [1, 4]
}

variable "qd1_p99_limit_us" {
  description = "The 99th percentile latency 4 KiB random reads at QD1 must stay under, in µs."
  type        = number
  default     = 500
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

profile "sequential" {
  for_each = ["read", "write"]

  rw      = each.key
  bs      = "128KiB"
  runtime = var.runtime
  ramp    = var.ramp
  direct  = true
  sweep { iodepth = var.sequential_depths }
}

profile "random" {
  for_each = ["randread", "randwrite"]

  rw      = each.key
  bs      = "4KiB"
  runtime = var.runtime
  ramp    = var.ramp
  direct  = true
  sweep {
    iodepth = var.random_depths
    numjobs = var.random_jobs
  }
}

profile "qd1-latency" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = var.runtime
  ramp    = var.ramp
  direct  = true
  expect  = [result.read.p99_us < var.qd1_p99_limit_us]
}

accept "spec-sheet" {
  tolerance_pct = var.tolerance_pct
  pcie_gen      = var.pcie_gen
}

report {
  summary = { script = "checks/summary.star", function = "acceptance" }
}
