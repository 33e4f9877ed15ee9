# Two scratch files measured at once, each in its own lane.

testbed "local" {
  parallel = true
}

drive "a" {
  size     = "32MiB"
  writable = true
}

drive "b" {
  size     = "32MiB"
  writable = true
}

profile "4k-random-write" {
  rw      = "randwrite"
  bs      = "4KiB"
  runtime = "2s"
  ramp    = "0s"

  sweep {
    iodepth = [1, 8]
  }
}
