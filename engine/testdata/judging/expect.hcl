drive "d" {
  size     = "4MiB"
  writable = true
  spec {
    tiny = { iops = 1, rw = "randread", bs = "4KiB" }
  }
}

profile "read" {
  rw      = "randread"
  runtime = "50ms"
  sweep { iodepth = [1, 2] }
  expect = [
    result.read.iops >= spec.tiny.iops,
    result.read.lat.p99_us < 0.001,
  ]
}
