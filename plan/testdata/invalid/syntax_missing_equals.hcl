drive "d" {
  size "1GiB" # ERROR: Invalid block definition
}
