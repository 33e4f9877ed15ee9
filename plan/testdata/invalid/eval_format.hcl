# An expression that would exhaust the machine stops at an evaluation limit.

locals {
  big = format("%01000000000d", 1) # ERROR: Plan Evaluation Limit
}

drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  runtime = "1s"
}
