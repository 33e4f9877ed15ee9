drive "d" {
  size     = var.capacity # ERROR: Reference To Undeclared Variable
  writable = true
}
