# An expression that would exhaust the machine stops at an evaluation limit.

locals {
  big = setproduct(range(1000), range(1000), range(1000)) # ERROR: Plan Evaluation Limit
}

drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  runtime = "1s"
}
