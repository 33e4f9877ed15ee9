# A read profile on a file that nothing wrote.
variable "target" {}

drive "sparse" {
  path = var.target
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  direct  = true
  runtime = "200ms"
}
