drive "scratch" {
  size                 = "1GiB"
  writable             = true
  volatile_write_cache = false # ERROR: Write Cache Of A File
}

drive "folder" {
  directory            = "/tmp"
  size                 = "1GiB"
  volatile_write_cache = "off" # ERROR: Incorrect Value Type
}

profile "p" {
  rw       = "randread"
  runtime  = "10s"
  pause    = "0s"    # ERROR: Value Out Of Range
  headline = "mbps"  # ERROR: Unknown Headline
  drives   = ["scratch"]
}

report {
  units = "MB" # ERROR: Unknown Bandwidth Unit
}
