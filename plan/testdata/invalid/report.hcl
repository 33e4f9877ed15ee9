drive "scratch" {
  size     = "1GiB"
  writable = true
}

report {
  formats = ["markdown", "pdf"] # ERROR: Unknown Report Format
}

report { # ERROR: Duplicate Report Block
  formats = ["json"]
}
