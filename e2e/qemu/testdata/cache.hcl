# The QEMU tier's write-cache plan: SNIA's PTS runs with the volatile
# write cache off. The run switches it off, an exec step asks nvme-cli
# what the controller says while the run holds it off, and the run puts
# it back at the end. The write is long enough for several temperature
# readings.

drive "nvme" {
  path                 = "/dev/nvme0n1"
  writable             = true
  allow_existing_data  = true
  volatile_write_cache = false
}

profile "4k-random-write" {
  rw      = "randwrite"
  bs      = "4KiB"
  iodepth = 4
  runtime = "12s"
  direct  = true
  size    = "64MiB"
}

exec "cache-during-run" {
  command = ["nvme", "get-feature", "/dev/nvme0", "-f", "6"]
  timeout = "30s"
}

report {
  formats = ["markdown", "json"]
}
