drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "forever" { # ERROR: Missing Run Length
  rw = "read"
}

profile "both" {
  rw      = "read"
  runtime = "10s"
  io_size = "1GiB"
}
