drive "reference" {
  path   = "/dev/nvme0n1"
  shared = true
}

drive "target" {
  path     = "/dev/nvme1n1"
  writable = true
  shared   = true # ERROR: Shared Writable Drive
}

drive "scratch" {
  size   = "64MiB"
  shared = true # ERROR: Shared Scratch File
}

drive "typo" {
  path   = "/dev/nvme2n1"
  shared = "yes" # ERROR: Incorrect
}

profile "read" {
  rw      = "randread"
  runtime = "1s"
  drives  = ["reference", "scratch", "typo"]
}
