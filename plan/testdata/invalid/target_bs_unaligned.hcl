# O_DIRECT transfers that are no multiple of the file's logical block size
# (512 bytes or more on every file system).
drive "f" {
  path = "testdata/invalid/targets/64k.img"
}

profile "odd" {
  rw      = "randread"
  bs      = "1000" # ERROR: Transfer Size Not Aligned
  direct  = true
  runtime = "10s"
}

profile "swept" {
  rw      = "randread"
  direct  = true
  runtime = "10s"
  sweep {
    bs = ["4KiB", "100"] # ERROR: Transfer Size Not Aligned
  }
}

profile "split" {
  rw       = "randread"
  bs_split = { "4KiB" = 50, "1000" = 50 } # ERROR: Transfer Size Not Aligned
  direct   = true
  runtime  = "10s"
}

profile "buffered" {
  rw      = "randread"
  bs      = "1000"
  runtime = "10s"
}
