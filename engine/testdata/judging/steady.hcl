drive "d" {
  size     = "4MiB"
  writable = true
}

profile "writes" {
  rw      = "randwrite"
  runtime = "50ms"
  sweep { iodepth = [1, 2] }
  expect = [result.write.iops > 0]
  steady_state {
    max_rounds = 5
    track      = { iodepth = 2 }
    hook       = { script = "hooks.star", function = "steady_after", args = { rounds = 3 } }
  }
}
