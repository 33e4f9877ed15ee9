# A plan that holds its drive for a minute, for the tests of target locks.
variable "target" {
  type = string
}

drive "d" {
  path     = var.target
  size     = "16MiB"
  writable = true
}

profile "quick" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "200ms"
}

profile "long" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1m"
}
