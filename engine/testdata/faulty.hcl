variable "target" {}

drive "dying" {
  path     = var.target
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "2s"
}

profile "fill" {
  rw      = "write"
  bs      = "64KiB"
  io_size = "1MiB"
}
