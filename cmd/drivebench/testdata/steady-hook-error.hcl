drive "scratch" {
  size     = "8MiB"
  writable = true
}

profile "rounds" {
  rw      = "randwrite"
  bs      = "4KiB"
  runtime = "100ms"
  steady_state {
    metric     = "iops"
    max_rounds = 4
    hook = {
      script   = "steady-hook-error.star"
      function = "broken"
    }
  }
}
