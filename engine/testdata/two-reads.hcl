variable "target" {}

drive "d" {
  path = var.target
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "200ms"
  sweep { iodepth = [1, 2] }
}
