drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "typo" {
  rw      = "randomread" # ERROR: Invalid I/O Pattern
  runtime = "10s"
}

profile "missing" { # ERROR: Missing I/O Pattern
  runtime = "10s"
}

precondition "fill" {
  pattern = "sequential" # ERROR: Unknown Precondition Pattern
}
