drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "quick" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "200ms"
}

profile "long" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1m"
}
