drive "d" {
  size     = "8MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1m"
}

profile "after" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1s"
}
