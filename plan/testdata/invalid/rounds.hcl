drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "curve" {
  rw        = "randread"
  runtime   = "1s"
  rate_iops = 1000 # ERROR: Rate Set On A Rate Curve
  rate_curve {
    percents = [10, 50, 40] # ERROR: Percents Not Increasing
    stop     = { stat = "p97", above = "1ms" } # ERROR: Unknown Latency Statistic
  }
}

profile "curve2" {
  rw      = "randread"
  runtime = "1s"
  rate_curve {
    percents = [0] # ERROR: Value Out Of Range
    stop     = { stat = "p99" } # ERROR: Incomplete Stop Condition
  }
}

profile "both" {
  rw      = "read"
  runtime = "1s"
  repeat {
    rounds = 3
    keep   = 4 # ERROR: Value Out Of Range
    use    = "last"
  }
  steady_state { # ERROR: Conflicting Repetition
  }
}

profile "keep" {
  rw      = "read"
  runtime = "1s"
  repeat {
    rounds = 3
    keep   = 2 # ERROR: Keep Without A Choice
  }
}

profile "steady" {
  rw      = "randrw"
  runtime = "1s"
  sweep {
    bs       = ["4KiB", "8KiB"]
    read_pct = [0, 100]
  }
  steady_state {
    metric = "throughput" # ERROR: Unknown Metric
    window = 30           # ERROR: Value Out Of Range
    track  = { bs = "16KiB", read_pct = 0 } # ERROR: Tracked Point Not Swept
  }
}

profile "untracked" {
  rw      = "randrw"
  runtime = "1s"
  sweep {
    bs = ["4KiB", "8KiB"]
  }
  steady_state { # ERROR: Missing Tracked Point
    max_rounds = 5000 # ERROR: Value Out Of Range
  }
}

profile "huge" {
  rw      = "randrw"
  runtime = "1s"
  sweep {
    iodepth = range(1, 101)
    numjobs = range(1, 101)
  }
  repeat { # ERROR: Profile Too Large
    rounds = 2
  }
}
