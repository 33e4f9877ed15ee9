# Three independent mistakes; all of them must be reported at once.
drive "scratch" {
  size     = "1 GB"
  writable = true
}

profile "4k-random-read" {
  rw      = "randread"
  bs      = "4kb"
  iodepth = 0 # ERROR: Value Out Of Range
  runtime = "10s"
}

profile "64k-seq-write" {
  rw      = "write"
  bs      = "64KiB"
  runtime = "10s"
  drives  = ["scrach"] # ERROR: Reference To Undefined Drive
}

check "latency" {
  script   = "checks/latency.star"
  function = "p99_under"
  profile  = "4k-random-reed" # ERROR: Reference To Undefined Profile
}
