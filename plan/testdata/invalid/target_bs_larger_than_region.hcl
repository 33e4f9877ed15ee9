# A transfer larger than the 64 KiB file it runs on.
drive "f" {
  path = "testdata/invalid/targets/64k.img"
}

profile "huge" {
  rw      = "read"
  bs      = "1MiB" # ERROR: Transfer Larger Than The Region
  runtime = "10s"
}
