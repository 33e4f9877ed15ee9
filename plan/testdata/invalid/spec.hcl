drive "nvme0" {
  path = "/dev/nvme0n1"
  spec {
    rand_read_4k = { iops = 1000000, bs = "4KiB", colour = "red" } # ERROR: Unknown Spec Condition
    seq_read     = { bs = "128KiB", iodepth = 32 } # ERROR: Spec Entry Without A Figure
    rand_write   = { iops = 200000, state = "used" } # ERROR: Invalid Drive State
    latency      = "80us" # ERROR: Incorrect Value Type
    negative     = { lat_us = -5 } # ERROR: Invalid Spec Figure
    deep         = { iops = 1, iodepth = 70000 } # ERROR: Value Out Of Range
    many         = { iops = 1, numjobs = 0 } # ERROR: Value Out Of Range
    pattern      = { iops = 1, rw = "randomread" } # ERROR: Invalid I/O Pattern
    tiny         = { iops = 1, bs = "4XB" } # ERROR: Invalid Size
  }
  spec { # ERROR: Duplicate Spec Block
    x = { iops = 1 }
  }
  engine = "spdk" # ERROR: Unknown Engine
}
