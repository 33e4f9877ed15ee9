drive "dev" {
  path     = "/dev/nvme9n1"
  writable = true
}

drive "scratch" {
  size     = "1GiB"
  writable = true
}

checkpoint "on_device" { # ERROR: File Set On A Device
  preset = "llama3-8b"
  scale  = 0.001
  drives = ["dev"]
}

checkpoint "no_shape" { # ERROR: Missing Checkpoint Shape
  passes = 2
  drives = ["scratch"]
}

checkpoint "unknown" {
  preset = "llama3-7b" # ERROR: Unknown Checkpoint Preset
  ranks  = 2
  size   = "1GiB"
  drives = ["scratch"]
}

checkpoint "too_small" { # ERROR: Checkpoint Too Small
  ranks  = 8
  size   = "1MiB"
  drives = ["scratch"]
}

checkpoint "scale" {
  preset = "llama3-70b"
  scale  = 2 # ERROR: Value Out Of Range
  drives = ["scratch"]
}
