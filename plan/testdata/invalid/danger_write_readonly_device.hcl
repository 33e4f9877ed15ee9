drive "nvme" {
  path = "/dev/nvme0n1"
}

precondition "fill" {
  pattern = "sequential_write" # ERROR: Write To A Drive Not Marked Writable
}
