drive "scratch" {
  size     = "1GiBB"
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "5s"
  drives  = ["scratc"]
}

check "latency" {
  script   = "missing.star"
  function = "p99_under"
  profile  = "read"
}
