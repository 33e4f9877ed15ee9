drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "a" {
  for_each = 42 # ERROR: Invalid for_each
  rw       = "read"
  runtime  = "1s"
}

profile "b" {
  for_each = ["x y"] # ERROR: Invalid for_each Key
  rw       = "read"
  runtime  = "1s"
}

profile "c" {
  for_each = [["nested"]] # ERROR: Invalid for_each
  rw       = "read"
  runtime  = "1s"
}

profile "d" {
  for_each = ["one", "one"] # ERROR: Invalid for_each Key
  rw       = "read"
  runtime  = "1s"
}

profile "e" {
  for_each = { fast = 1 }
  rw       = "read"
  iodepth  = each.val # ERROR: Unsupported Attribute
  runtime  = "1s"
}

profile "e.fast" { # ERROR: Duplicate Profile Name
  rw      = "read"
  runtime = "1s"
}
