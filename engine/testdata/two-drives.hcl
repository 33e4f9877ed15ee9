drive "a" {
  size     = "8MiB"
  writable = true
}

drive "b" {
  size     = "8MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1s"
}
