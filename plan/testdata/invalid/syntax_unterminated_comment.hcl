drive "scratch" {
  size     = "16MiB"
  writable = true
}

/* this comment is never closed # ERROR: Unterminated Comment

profile "read" {
  rw      = "randread"
  runtime = "1s"
}
