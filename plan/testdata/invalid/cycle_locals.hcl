locals {
  a = local.b # ERROR: Cycle In Local Values
  b = local.a
}

drive "d" {
  size     = "1GiB"
  writable = true
}
