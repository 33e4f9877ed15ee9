drive "d" {
  size     = "1GiB"
  writable = true
}

profile "p" {
  rw      = "randread"
  runtime = "1s"
  size    = "250%" # ERROR: Invalid Percentage
}
