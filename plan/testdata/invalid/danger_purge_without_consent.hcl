drive "nvme" {
  path     = "/dev/nvme0n1"
  writable = true
}

precondition "erase" {
  pattern = "purge" # ERROR: Purge Not Confirmed
  method  = "sanitize-crypto"
}
