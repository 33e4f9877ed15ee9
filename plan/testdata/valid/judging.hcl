# Every way of judging a result and an application step: expectations,
# an adaptive sweep, a steady-state hook, exec steps on a directory drive,
# spec-sheet acceptance and a report summary.

variable "limit_us" { default = 1000 }

drive "ssd" {
  size     = "1GiB"
  writable = true
  spec {
    rand_read_4k  = { iops = 100000, rw = "randread", bs = "4KiB", iodepth = 32 }
    rand_write_4k = { iops = 50000, rw = "randwrite", bs = "4KiB", state = "steady" }
    endurance     = { dwpd = 1 }
  }
}

drive "fs" {
  directory = "/mnt/test/bench"
  writable  = true
}

profile "read" {
  rw      = "randread"
  runtime = "10s"
  drives  = ["ssd"]
  sweep { iodepth = [1, 32] }
  expect = [
    result.read.iops >= 0.9 * spec.rand_read_4k.iops,
    result.read.p99_us < var.limit_us,
  ]
}

profile "search" {
  rw      = "randread"
  runtime = "10s"
  drives  = ["ssd"]
  expect  = result.total.p99_9_us < 2 * var.limit_us
  adaptive {
    script     = "hooks/judge.star"
    function   = "double"
    args       = { limit_us = var.limit_us }
    max_points = 8
  }
}

profile "steady" {
  rw      = "randwrite"
  iodepth = 32
  runtime = "10s"
  drives  = ["ssd"]
  steady_state {
    max_rounds = 4
    hook       = { script = "hooks/judge.star", function = "flat" }
  }
}

exec "bench" {
  for_each = { one = 1, eight = 8 }
  command  = ["sysbench", "fileio", "--threads=${each.value}", "run"]
  env      = { LC_ALL = "C" }
  user     = "nobody"
  timeout  = "5m"
  drives   = ["fs"]
  parse    = { script = "hooks/judge.star", function = "kv" }
  expect   = [result.metrics.tps > 0, result.runtime_s < 600]
}

accept "sheet" {
  tolerance_pct = 10
  pcie_gen      = 4
  entries       = ["rand_read_4k", "rand_write_4k", "endurance"]
}

report {
  summary = { script = "hooks/judge.star", function = "summary" }
}
