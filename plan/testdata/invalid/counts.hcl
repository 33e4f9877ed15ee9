drive "scratch" {
  size     = "1GiB"
  writable = true
}

precondition "fill" {
  pattern = "sequential_write"
  passes  = 0 # ERROR: Value Out Of Range
}

profile "deep" {
  rw      = "randread"
  iodepth = 0    # ERROR: Value Out Of Range
  numjobs = -1   # ERROR: Value Out Of Range
  bs      = 0    # ERROR: Value Out Of Range
  seed    = 1.5  # ERROR: Value Out Of Range
  runtime = "0s" # ERROR: Value Out Of Range
}
