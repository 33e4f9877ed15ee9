drive "d" {
  size     = "-1GiB" # ERROR: Invalid Size
  writable = true
}
