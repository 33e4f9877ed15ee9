drive "a" {
  path = "/dev/sda"
}

drive "b" {
  path = "/dev/sdb"
}

profile "4k-random-read" {
  rw      = "randread"
  runtime = "10s"
  drives  = ["a"]
}

check "latency" {
  script   = "checks/missing.star" # ERROR: Check Script Not Found
  function = "p99-under"           # ERROR: Invalid Function Name
  profile  = "4k-random-read"
  drives   = ["a", "b"]            # ERROR: Check On A Drive Its Profile Skips
  args     = "limit_us=5000"       # ERROR: Incorrect Value Type
}

check "incomplete" { # ERROR: Missing required argument # ERROR: Missing required argument
  script = "checks/latency.star"
}
