drive "d" {
  size     = "1GiB"
  writable = true
}

profile "p" {
  mix     = "sqll" # ERROR: Reference To Undefined Mix
  runtime = "1s"
}
