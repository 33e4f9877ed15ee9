drive "scratch" {
  size     = "1GiB"
  writable = true
}

precondition "fill" {
  pattern = "sequential_write"
  offset  = "2GiB" # ERROR: Region Outside The Drive
}

profile "tail" {
  rw      = "read"
  runtime = "10s"
  offset  = "512MiB"
  size    = "1GiB" # ERROR: Region Outside The Drive
}

profile "empty-list" {
  rw      = "read"
  runtime = "10s"
  drives  = [] # ERROR: Empty Drive List
}

profile "twice" {
  rw      = "read"
  runtime = "10s"
  drives  = ["scratch", "scratch"] # ERROR: Duplicate List Element
}
