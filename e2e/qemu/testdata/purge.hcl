# The QEMU tier's plan with a purge: the namespace is formatted with a
# user data erase before a short random read and a sequential write.
# run.hcl is the same plan without the purge.

testbed "qemu" {
  description = "QEMU TCG guest with an emulated NVMe controller"
}

drive "nvme" {
  path                = "/dev/nvme0n1"
  writable            = true
  allow_existing_data = true
}

precondition "purge" {
  pattern     = "purge"
  method      = "format"
  destructive = true
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
