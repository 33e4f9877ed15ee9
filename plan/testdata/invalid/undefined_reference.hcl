drive "nvme0" {
  path = "/dev/nvme0n1"
}

profile "4k-random-read" {
  rw      = "randread"
  runtime = "10s"
  drives  = ["nvme0", "nvme1"] # ERROR: Reference To Undefined Drive
}

check "latency" {
  script   = "checks/latency.star"
  function = "p99_under"
  profile  = "4k-randread" # ERROR: Reference To Undefined Profile
}
