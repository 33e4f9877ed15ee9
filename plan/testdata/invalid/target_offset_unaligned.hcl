# An O_DIRECT region that starts off the file's logical block boundary.
drive "f" {
  path = "testdata/invalid/targets/64k.img"
}

profile "odd" {
  rw      = "randread"
  bs      = "4KiB"
  offset  = "1000" # ERROR: Offset Not Aligned
  direct  = true
  runtime = "10s"
}
