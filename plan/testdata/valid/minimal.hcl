drive "scratch" {
  size = "256MiB"
}

profile "read" {
  rw      = "randread"
  runtime = 5
}
