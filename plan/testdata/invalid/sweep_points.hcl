drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "ladder" {
  rw      = "randread"
  runtime = "10s"
  numjobs = 2 # ERROR: Parameter Both Set And Swept
  sweep {
    points = [
      { numjobs = 1, iodepth = 1 },
      { numjobs = 1 },                  # ERROR: Inconsistent Sweep Points
    ]
  }
}

profile "bad-keys" {
  rw      = "randread"
  runtime = "10s"
  sweep {
    iodepth = [1, 2]
    points = [
      { iodepht = 1 },                  # ERROR: Unsupported Sweep Parameter
      { iodepth = 4 },                  # ERROR: Parameter Both Set And Swept
    ]
  }
}

profile "dup" {
  rw      = "randread"
  runtime = "10s"
  sweep {
    points = [
      { numjobs = 1, iodepth = 1 },
      { iodepth = 1, numjobs = 1 },     # ERROR: Duplicate Sweep Value
      "qd4",                            # ERROR: Incorrect Value Type
      {},                               # ERROR: Empty Sweep
    ]
  }
}

profile "empty" {
  rw      = "randread"
  runtime = "10s"
  sweep {
    points = [] # ERROR: Empty Sweep
  }
}
