# Two expectations on a short sweep: one holds, one cannot (no drive does
# a billion IOPS), so the JUnit file has a pass and a failure per point.
drive "scratch" {
  size     = "8MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "300ms"
  sweep {
    iodepth = [1, 2]
  }
  expect = [result.read.iops > 0, result.read.iops > 1000000000]
}
