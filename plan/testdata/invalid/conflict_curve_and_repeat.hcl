drive "d" {
  size     = "1GiB"
  writable = true
}

profile "p" {
  rw      = "randread"
  runtime = "1s"
  rate_curve {
    percents = [50, 100]
  }
  repeat { # ERROR: Conflicting Repetition
    rounds = 3
  }
}
