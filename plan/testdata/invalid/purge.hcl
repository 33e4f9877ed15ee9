variable "target" { default = "" }

drive "scratch" {
  path     = var.target
  size     = "1GiB"
  writable = true
}

drive "device" {
  path = "/dev/nvme0n1"
}

precondition "erase" {
  pattern = "purge" # ERROR: Purge Not Confirmed # ERROR: Purge Of A Scratch File # ERROR: Write To A Drive Not Marked Writable
  method  = "shred" # ERROR: Unknown Purge Method
  bs      = "4KiB"  # ERROR: Attribute Not Used By A Purge
}

precondition "no-method" {
  pattern     = "purge" # ERROR: Missing Purge Method # ERROR: Write To A Drive Not Marked Writable
  destructive = true
  drives      = ["device"]
}

precondition "fill" {
  pattern     = "sequential_write"
  destructive = true # ERROR: Attribute Only For A Purge
  drives      = ["scratch"]
}

profile "read" {
  rw            = "randread"
  runtime       = "1s"
  preconditions = ["erase", "fil"] # ERROR: Reference To Undefined Precondition
  drives        = ["scratch"]
}
