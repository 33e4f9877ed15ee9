# A vdbench-style sweep of a file in memory (tmpfs): every point warns
# that its figures are memory speed.

variable "target" {
  description = "A file on tmpfs."
}

drive "mem" {
  path     = var.target
  size     = "16MiB"
  writable = true
}

profile "sweep" {
  rw      = "randread"
  runtime = "250ms"
  ramp    = "0s"

  sweep {
    bs      = ["4KiB", "16KiB", "64KiB"]
    iodepth = [1, 2, 4, 8, 16, 32]
  }
}
