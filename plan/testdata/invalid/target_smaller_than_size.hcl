# testdata/invalid/targets/64k.img holds 64 KiB, less than the drive's size.
drive "small" {
  path = "testdata/invalid/targets/64k.img"
  size = "1MiB" # ERROR: File Smaller Than The Drive
}

profile "read" {
  rw      = "randread"
  runtime = "10s"
}
