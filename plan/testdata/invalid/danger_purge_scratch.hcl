drive "d" {
  size     = "1GiB"
  writable = true
}

precondition "erase" {
  pattern     = "purge" # ERROR: Purge Of A Scratch File
  method      = "format"
  destructive = true
}
