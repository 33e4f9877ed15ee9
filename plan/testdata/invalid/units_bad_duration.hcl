drive "d" {
  size     = "1GiB"
  writable = true
}

profile "p" {
  rw      = "randread"
  runtime = "10 parsecs" # ERROR: Invalid Duration
}
