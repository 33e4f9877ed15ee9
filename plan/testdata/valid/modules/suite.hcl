# A module: a methodology with inputs.
variable "depth" {
  type = number
  validation {
    condition     = var.depth >= 1
    error_message = "depth is at least 1."
  }
}
variable "runtime" { default = "5s" }

locals {
  points = range_pct(50, 100, 25)
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "1MiB"
}

profile "curve" {
  rw            = "randread"
  iodepth       = var.depth
  runtime       = var.runtime
  preconditions = ["fill"]
  rate_curve {
    percents = local.points
    stop     = { stat = "p99", above = "5ms" }
  }
}

check "latency" {
  script   = "../checks/latency.star"
  function = "p99_under"
  profile  = "curve"
  args     = { limit_us = 5000 }
}
