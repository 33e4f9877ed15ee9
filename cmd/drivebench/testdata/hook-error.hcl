drive "scratch" {
  size     = "8MiB"
  writable = true
}

profile "read" {
  rw       = "randread"
  bs       = "4KiB"
  runtime  = "1s"
}

check "broken" {
  script   = "hook-error.star"
  function = "broken"
  profile  = "read"
  args     = { limit_us = 100 }
}
