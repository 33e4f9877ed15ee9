drive "scratch" {
  size     = gibi(1) # ERROR: Call to unknown function
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = kib(0.1) # ERROR: Invalid function argument
  runtime = "1s"
  sweep {
    iodepth = pow2(3, 8) # ERROR: Invalid function argument
    numjobs = range_pct(10, 5, 1) # ERROR: Invalid function argument
  }
}

profile "write" {
  rw      = "write"
  bs      = parse_size("4 lightyears") # ERROR: Invalid function argument
  runtime = parse_duration("soon") # ERROR: Invalid function argument
}
