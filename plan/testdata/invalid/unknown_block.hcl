drive "scratch" {
  size = "1GiB"
}

profle "4k" { # ERROR: Unsupported block type
  rw = "randread"
}
