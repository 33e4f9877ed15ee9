variable "target" {}

drive "small" {
  path = var.target
}

profile "beyond-the-end" {
  rw      = "randread"
  bs      = "4KiB"
  offset  = "1MiB"
  runtime = "200ms"
}

profile "fine" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "200ms"
}
