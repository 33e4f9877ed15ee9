drive "scratch" {
  size     = "1GiB"
  writable = true
  spec {
    seq_read = { bw = "6200MB", bs = "128KiB" } # ERROR: Invalid Bandwidth
  }
}

profile "bad-units" {
  rw      = "randread"
  bs      = "4XB"        # ERROR: Invalid Size
  runtime = "10 minutes" # ERROR: Invalid Duration
  ramp    = true         # ERROR: Incorrect Value Type
  offset  = "1.5"        # ERROR: Invalid Size
}

profile "bad-region" {
  rw      = "read"
  io_size = [1, 2]       # ERROR: Incorrect Value Type
  size    = "150%"       # ERROR: Invalid Percentage
}
