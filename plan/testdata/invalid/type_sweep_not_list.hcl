drive "d" {
  size     = "1GiB"
  writable = true
}

profile "p" {
  rw      = "randread"
  runtime = "1s"
  sweep {
    iodepth = 4 # ERROR: Incorrect Value Type
  }
}
