drive "d" {
  size     = "1GiB"
  writable = true
}

profile "p" {
  rw      = "randread"
  iodepth = "four" # ERROR: Incorrect Value Type
  runtime = "1s"
}
