hook_memory = "128MiB"

drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "200ms"
}

profile "write" {
  rw      = "randwrite"
  bs      = "4KiB"
  runtime = "200ms"
}

check "bomb" {
  script   = "memory-bomb.star"
  function = "bomb"
  profile  = "read"
}

check "fine" {
  script   = "memory-bomb.star"
  function = "fine"
  profile  = "write"
}
