# Two drives, one of them read-only, with every kind of block.
variable "device" {
  type        = string
  default     = "/dev/nvme0n1"
  description = "The drive under test."
}
variable "depths" {
  type    = list(number)
  default = [1, 4, 16, 64]
}
variable "seconds" {
  type    = number
  default = 30
}
variable "mixes" { default = [70, 30] }

testbed "lab-r760" {
  description = "Rack 4, slot 2"
  facts = {
    server = "Dell R760"
    cpus   = 2
    kernel = format("%s-%s", "6.1", upper("lts"))
  }
}

drive "nvme0" {
  path                = var.device
  writable            = true
  allow_existing_data = false
  engine              = "native"
  spec {
    rand_read_4k  = { iops = 1000000, bs = "4KiB", iodepth = 32, numjobs = 4, state = "steady", rw = "randread" }
    seq_read_128k = { bw = "6.8GB/s", bs = "128KiB", iodepth = 32 }
    rand_write_4k = { iops = 180000, lat_us = 20, bs = 4096, state = "fresh", rw = "randwrite" }
    seq_write     = { bw = 5905580032 }
  }
}

drive "reference" {
  path = "/dev/sdb"
  size = "1.92TB"
}

precondition "fill" {
  pattern = "sequential_write"
  passes  = 2
  drives  = ["nvme0"]
}

precondition "scramble" {
  pattern = "random_write"
  bs      = "4k"
  iodepth = 32
  numjobs = 4
  direct  = true
  offset  = 0
  size    = "50%"
  drives  = ["nvme0"]
}

profile "random-read" {
  rw      = "randread"
  numjobs = 2
  runtime = var.seconds
  ramp    = "5s"
  direct  = true
  seed    = 42
  sweep {
    bs      = ["4KiB", "64KiB"]
    iodepth = slice(var.depths, 0, 3)
  }
}

profile "oltp-mix" {
  rw       = "randrw"
  bs       = "8KiB"
  iodepth  = 8
  runtime  = "1m"
  size     = "25%"
  engine   = "fio"
  ioengine = "io_uring"
  drives   = ["nvme0"]
  sweep { read_pct = var.mixes }
}

profile "patterns" {
  io_size = "2GiB"
  offset  = "1GiB"
  size    = "4GiB"
  drives  = ["nvme0"]
  sweep {
    rw = ["read", "write", "randrw"]
  }
}

profile "seq-read" {
  rw      = "read"
  bs      = "1MiB"
  io_size = 1073741824
}

check "latency" {
  script   = "checks/latency.star"
  function = "p99_under"
  profile  = "random-read"
  drives   = ["nvme0"]
  args     = { limit_us = 5000, percentiles = [99, 99.9], label = "p99" }
}

check "reads" {
  script   = "checks/latency.star"
  function = "p99_under"
  profile  = "seq-read"
  args     = { limit_us = 20000 }
}

report { formats = ["markdown", "json", "html"] }
