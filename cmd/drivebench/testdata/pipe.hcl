drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "quick" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "100ms"
  sweep { iodepth = [1, 2, 4] }
}
