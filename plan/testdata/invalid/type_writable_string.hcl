drive "d" {
  size     = "1GiB"
  writable = "yes please" # ERROR: Incorrect Value Type
}
