# A fill, then a long read that the resume test interrupts.
drive "scratch" {
  size     = "32MiB"
  writable = true
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "1MiB"
  direct  = true
  passes  = 1
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  direct  = true
  runtime = "1m"
}
