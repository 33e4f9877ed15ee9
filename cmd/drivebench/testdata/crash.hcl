drive "scratch" {
  size     = "16MiB"
  writable = true
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "1MiB"
  passes  = 2
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "150ms"
  sweep { iodepth = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] }
}

profile "write" {
  rw      = "randwrite"
  bs      = "4KiB"
  runtime = "150ms"
  sweep { iodepth = [1, 2, 3, 4, 5, 6, 7, 8] }
}
