drive "d" {
  size     = kibibytes(4) # ERROR: Call to unknown function
  writable = true
}
