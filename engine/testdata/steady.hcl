drive "d" {
  size     = "8MiB"
  writable = true
}

profile "iops" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "100ms"

  sweep {
    iodepth = [1, 2]
  }

  steady_state {
    metric        = "iops"
    window        = 3
    max_rounds    = 6
    excursion_pct = 100
    slope_pct     = 100
    track         = { iodepth = 1 }
  }
}
