# An expression that would exhaust the machine stops at an evaluation limit.

locals {
  big = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : a + b + c]]] # ERROR: Plan Evaluation Limit
}

drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  runtime = "1s"
}
