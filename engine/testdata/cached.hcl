drive "d" {
  size     = "4MiB"
  writable = true
}

profile "buffered-write" {
  rw      = "write"
  bs      = "64KiB"
  direct  = false
  io_size = "4MiB"
}

profile "buffered-read" {
  rw      = "randread"
  bs      = "4KiB"
  direct  = false
  io_size = "1MiB"
}

profile "direct-read" {
  rw      = "randread"
  bs      = "4KiB"
  direct  = true
  io_size = "256KiB"
}
