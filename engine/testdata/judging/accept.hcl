variable "summary" { default = "summary" }

drive "d" {
  size     = "8MiB"
  writable = true
  spec {
    easy_read     = { iops = 1, rw = "randread", bs = "4KiB", iodepth = 2, numjobs = 1 }
    huge_read     = { iops = 1000000000000, rw = "randread", bs = "4KiB", iodepth = 2, numjobs = 1 }
    deep_read     = { iops = 1000000000000, rw = "randread", bs = "4KiB", iodepth = 64, numjobs = 8 }
    any_depth     = { iops = 1000000000000, rw = "randread", bs = "4KiB" }
    slow_latency  = { lat_us = 1000000000, p99_us = 1000000000, rw = "randread", bs = "4KiB", iodepth = 1 }
    other_size    = { iops = 1000000000000, rw = "randread", bs = "64KiB", iodepth = 1 }
    writes        = { iops = 1, rw = "randwrite", bs = "4KiB" }
    gen3          = { iops = 1, rw = "randread", pcie_gen = 3 }
    steady_writes = { iops = 1000000000000, rw = "randread", bs = "4KiB", iodepth = 1, state = "steady" }
    endurance     = { dwpd = 1 }
    no_pattern    = { iops = 1 }
  }
}

profile "reads" {
  rw      = "randread"
  io_size = "1MiB"
  sweep {
    iodepth = [1, 2]
    numjobs = [1, 2]
  }
}

profile "capped" {
  rw        = "randread"
  runtime   = "50ms"
  rate_iops = 10
}

accept "sheet" {
  tolerance_pct = 5
  pcie_gen      = 4
}

report {
  summary = { script = "hooks.star", function = var.summary }
}
