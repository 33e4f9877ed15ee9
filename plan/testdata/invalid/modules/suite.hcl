variable "depth" {
  type = number
  validation {
    condition     = var.depth >= 1
    error_message = "depth is at least 1."
  }
}

variable "runtime" {}

profile "read" {
  rw      = "randread"
  iodepth = var.depth
  runtime = var.runtime
  drives  = ["other"] # ERROR: Drive Outside The Module's Drives
}

check "latency" {
  script   = "checks/latency.star" # ERROR: Check Script Not Found
  function = "p99_under"
  profile  = "raed" # ERROR: Reference To Undefined Profile
}

drive "x" { # ERROR: Unsupported block type
}
