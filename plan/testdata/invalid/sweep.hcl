drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "sweeps" {
  rw      = "randread"
  iodepth = 4 # ERROR: Parameter Both Set And Swept
  runtime = "10s"
  sweep {
    iodepth = [1, 4, 16]
    runtime = ["10s", "20s"] # ERROR: Unsupported argument
    numjobs = []             # ERROR: Empty Sweep
    bs      = ["4KiB", 4096] # ERROR: Duplicate Sweep Value
  }
}

profile "more" {
  runtime = "10s"
  sweep {
    rw = ["read", "randraed"] # ERROR: Invalid I/O Pattern
  }
  sweep { # ERROR: Duplicate Sweep Block
    iodepth = [1]
  }
}

profile "huge" {
  rw      = "randread"
  runtime = "1s"
  sweep { # ERROR: Sweep Too Large
    iodepth = range(1, 101)
    numjobs = range(1, 101)
    bs      = [4096, 8192]
  }
}
