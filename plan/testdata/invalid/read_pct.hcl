drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "mix" {
  rw       = "randrw"
  read_pct = 120 # ERROR: Value Out Of Range
  runtime  = "10s"
}

profile "reads" {
  rw       = "randread"
  read_pct = 70 # ERROR: Read Share Without A Mix
  runtime  = "10s"
}
