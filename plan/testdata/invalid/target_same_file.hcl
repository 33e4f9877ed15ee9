# Two writable drives on one file.
drive "a" {
  path     = "testdata/invalid/targets/64k.img"
  writable = true
}

drive "b" {
  path     = "testdata/invalid/targets/../targets/64k.img" # ERROR: Two Drives On One Target
  writable = true
}

profile "write" {
  rw      = "randwrite"
  runtime = "10s"
}
