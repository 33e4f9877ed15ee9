# One step long enough for heartbeat lines at the test's short interval.
drive "scratch" {
  size     = "8MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1500ms"
}
