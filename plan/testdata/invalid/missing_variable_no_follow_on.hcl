variable "target" {} # ERROR: Missing Variable Value

drive "nvme" {
  path     = var.target
  writable = true
}

precondition "erase" {
  pattern     = "purge"
  method      = "format"
  destructive = true
}
