variable "target" {}

drive "existing" {
  path = var.target
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "300ms"
}
