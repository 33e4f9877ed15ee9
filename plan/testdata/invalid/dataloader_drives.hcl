drive "dev" {
  path     = "/dev/nvme0n1"
  writable = true
}

dataloader "on_device" { # ERROR: File Set On A Device
  preset = "cosmoflow"
  scale  = 0.0001
  drives = ["dev"]
}

drive "readonly" {
  size = "1GiB"
}

dataloader "read_only" { # ERROR: Write To A Drive Not Marked Writable
  preset = "cosmoflow"
  scale  = 0.0001
  drives = ["readonly"]
}
