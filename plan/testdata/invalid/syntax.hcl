drive "scratch" {
  size = "1GiB" writable = true # ERROR: Missing newline after argument
}
