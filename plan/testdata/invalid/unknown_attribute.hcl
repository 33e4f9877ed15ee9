drive "scratch" { # ERROR: Missing Scratch File Size
  sise     = "1GiB" # ERROR: Unsupported argument
  writable = true
}
