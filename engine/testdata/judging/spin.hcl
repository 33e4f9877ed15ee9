drive "d" {
  size     = "4MiB"
  writable = true
}

profile "first" {
  rw      = "randread"
  runtime = "50ms"
}

check "spins" {
  script   = "hooks.star"
  function = "spin"
  profile  = "first"
}

profile "after" {
  rw      = "randread"
  runtime = "50ms"
}
