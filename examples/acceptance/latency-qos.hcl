# Latency quality of service, with two hooks of the plan's own. An adaptive
# sweep finds the highest queue depth at which 4 KiB random reads keep
# their 99th percentile latency under a limit: it doubles the depth until
# p99 crosses the limit, then bisects (hooks/qos.star). A random-write
# profile runs round after round until its IOPS settle, by a rule of the
# plan's own instead of SNIA's: the last three rounds within a 10 % band
# (hooks/steady.star). Both hooks are tested by hooks/*_test.star:
#
#   drivebench test-hooks examples/acceptance
#   drivebench run -var target=/dev/nvme0n1 examples/acceptance/latency-qos.hcl
#
# On a scratch file:
#
#   drivebench run -var target= -var size=256MiB -var runtime=1s -var limit_us=200 \
#     examples/acceptance/latency-qos.hcl

variable "target" {
  description = "Block device to test (its data is destroyed); empty for a scratch file, which then needs a size."
  type        = string
}

variable "size" {
  description = "Capacity to test, such as \"256MiB\"; 0 for the whole device."
  type        = string
  default     = "0"
}

variable "limit_us" {
  description = "The 99th percentile read latency to stay under, in µs."
  type        = number
  default     = 1000
}

variable "max_depth" {
  description = "The deepest queue the search tries."
  type        = number
  default     = 1024
}

variable "runtime" {
  description = "Measured time of each point and round."
  default     = "30s"
}

drive "dut" {
  path     = var.target
  size     = var.size
  writable = true
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "128KiB"
  iodepth = 32
  direct  = true
}

profile "qos-search" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = var.runtime
  direct  = true
  adaptive {
    script     = "hooks/qos.star"
    function   = "highest_depth_under"
    args       = { limit_us = var.limit_us, max_depth = var.max_depth }
    max_points = 20
  }
}

profile "write-steady" {
  rw      = "randwrite"
  bs      = "4KiB"
  iodepth = 32
  runtime = var.runtime
  direct  = true
  expect  = [result.write.p99_99_us < 100 * var.limit_us]
  steady_state {
    metric     = "iops"
    max_rounds = 10
    hook = {
      script   = "hooks/steady.star"
      function = "within_band"
      args     = { rounds = 3, band_pct = 10 }
    }
  }
}
