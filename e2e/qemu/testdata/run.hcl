# The QEMU tier's plan: a short random read and a sequential write on the
# emulated NVMe namespace. purge.hcl is the same plan with a purge first.

testbed "qemu" {
  description = "QEMU TCG guest with an emulated NVMe controller"
}

drive "nvme" {
  path                = "/dev/nvme0n1"
  writable            = true
  allow_existing_data = true
}

profile "4k-random-read" {
  rw      = "randread"
  bs      = "4KiB"
  iodepth = 4
  runtime = "2s"
  direct  = true
}

profile "128k-seq-write" {
  rw      = "write"
  bs      = "128KiB"
  iodepth = 2
  runtime = "2s"
  direct  = true
}

report {
  formats = ["markdown", "json"]
}
