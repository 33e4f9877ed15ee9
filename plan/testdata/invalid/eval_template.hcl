# An expression that would exhaust the machine stops at an evaluation limit.

locals {
  kib = join("", [for i in range(1000) : "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"])
  big = "${local.kib}${local.kib}${local.kib}${local.kib}${local.kib}${local.kib}${local.kib}${local.kib}" # ERROR: Plan Evaluation Limit
}

drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  runtime = "1s"
}
