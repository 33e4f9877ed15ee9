drive "d" {
  size     = "1GiB"
  writable = true
}

report {
  compare = ["no-such-run"] # ERROR: Comparable Results Not Found
}
