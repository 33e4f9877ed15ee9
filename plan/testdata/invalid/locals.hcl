variable "size" { default = "1GiB" }

locals {
  a = local.b + 1 # ERROR: Cycle In Local Values
  b = local.a * 2
  c = local.nope # ERROR: Reference To Undeclared Local Value
  d = var.size
}

locals {
  d = 2 # ERROR: Duplicate Local Value
}

drive "scratch" {
  size     = local.d
  writable = true
}

profile "read" {
  rw      = "randread"
  iodepth = local.a
  runtime = "1s"
  bs      = each.key # ERROR: Unknown Reference
}
