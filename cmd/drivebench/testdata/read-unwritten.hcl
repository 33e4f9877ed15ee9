# A read profile on a scratch drive with no fill before it.
drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1s"
}
