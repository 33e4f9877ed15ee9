drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "rates" {
  rw        = "randread"
  runtime   = "1s"
  rate_iops = 0           # ERROR: Value Out Of Range
  rate_bw   = "fast"      # ERROR: Invalid Bandwidth
  arrival   = "bursty"    # ERROR: Unknown Arrival
  io_size   = "0%"        # ERROR: Invalid Percentage
  verify    = true        # ERROR: Verify Without Writes
}

profile "data" {
  rw           = "write"
  runtime      = "1s"
  data         = "compressible" # ERROR: Missing Data Share
  dedupe_pct   = 20             # ERROR: Attribute Does Not Fit The Data Pattern
}

profile "data2" {
  rw           = "write"
  runtime      = "1s"
  compress_pct = 20 # ERROR: Attribute Does Not Fit The Data Pattern
}

profile "data4" {
  rw           = "write"
  runtime      = "1s"
  data         = "pattern" # ERROR: Unknown Data Pattern
  compress_pct = 120
}

profile "data3" {
  rw           = "write"
  runtime      = "1s"
  data         = "compressible"
  compress_pct = 100 # ERROR: Value Out Of Range
  on_error     = "abort" # ERROR: Unsupported argument
}

profile "split" {
  rw       = "randread"
  runtime  = "1s"
  bs_split = { "4KiB" = 100 }
  sweep {
    bs = ["4KiB", "8KiB"] # ERROR: Parameter Both Set And Swept
  }
}

on_error = "retry" # ERROR: Unknown Error Handling
