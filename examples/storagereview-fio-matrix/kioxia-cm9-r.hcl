# StorageReview's fio matrix review of the KIOXIA CM9-R 15.36 TB (PCIe 5.0):
# eight workloads, each swept over iodepth 1 to 32 and numjobs 1 to 16 (6 x 5
# points); the review reports each workload's peak with the point it was
# reached at, and the QD1 / 1 job point.
#
#   drivebench plan -var target=/dev/nvme0n1 examples/storagereview-fio-matrix/kioxia-cm9-r.hcl
#
# A quick run on a scratch file, scaled down:
#
#   drivebench run -var target= -var size=256MiB -var runtime=1s -var ramp=0s -var engine=native \
#     -var 'iodepths=[1, 4]' -var 'numjobs=[1, 2]' examples/storagereview-fio-matrix/kioxia-cm9-r.hcl

include = ["../drives/*.hcl"]

variable "target" {
  description = "Block device to test (its data is destroyed); empty for a scratch file, which then needs a size."
  type        = string
}

variable "size" {
  description = "Capacity to test; 0 for the whole device."
  default     = 0
}

variable "spec_sheet" {
  description = "Spec sheet the drive is held to, from examples/drives."
  default     = "kioxia-cm9-r-15.36tb"
}

variable "engine" {
  description = "The engine that runs the workloads: fio, as in the review, or the built-in native engine."
  default     = "fio"
  validation {
    condition     = contains(["fio", "native"], var.engine)
    error_message = "engine is \"fio\" or \"native\"."
  }
}

variable "runtime" {
  description = "Measured time of each point."
  default     = "1m"
}

variable "ramp" {
  description = "Warm-up of each point."
  default     = "10s"
}

variable "iodepths" {
  description = "Queue depths of the matrix; the review stopped at 32."
  type        = list(number)
  default     = pow2(1, 32)
}

variable "numjobs" {
  description = "Job counts of the matrix; the review stopped at 16."
  type        = list(number)
  default     = pow2(1, 16)
}

locals {
  # The review's workloads, in its order.
  # headline is the unit the review quotes each in: bandwidth for the
  # sequential and 64K tests (16K sequential too), IOPS for 4K random.
  workloads = [
    { name = "128k-sequential-write", rw = "write", bs = "128KiB", headline = "bw" },
    { name = "128k-sequential-read", rw = "read", bs = "128KiB", headline = "bw" },
    { name = "64k-random-write", rw = "randwrite", bs = "64KiB", headline = "bw" },
    { name = "64k-random-read", rw = "randread", bs = "64KiB", headline = "bw" },
    { name = "16k-sequential-write", rw = "write", bs = "16KiB", headline = "bw" },
    { name = "16k-sequential-read", rw = "read", bs = "16KiB", headline = "bw" },
    { name = "4k-random-write", rw = "randwrite", bs = "4KiB", headline = "iops" },
    { name = "4k-random-read", rw = "randread", bs = "4KiB", headline = "iops" },
  ]
  by_name = { for w in local.workloads : w.name => w }
}

testbed "dell-r760" {
  description = "StorageReview's PCIe Gen5 platform"
  engine      = var.engine
  facts = {
    server = "Dell PowerEdge R760"
    cpu    = "2x Intel Xeon Gold 6430 (2.1 GHz, 32 cores)"
    memory = "1 TB DDR5-4400 (16x 64 GB)"
    jbof   = "Serial Cables Gen5 JBOF"
    os     = "Ubuntu 22.04.2 LTS"
  }
}

drive "dut" {
  path       = var.target
  size       = var.size
  writable   = true
  spec_sheet = var.spec_sheet
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "128KiB"
  iodepth = 32
  direct  = true
}

profile "matrix" {
  for_each = [for w in local.workloads : w.name]

  rw       = local.by_name[each.key].rw
  bs       = local.by_name[each.key].bs
  headline = local.by_name[each.key].headline
  runtime  = var.runtime
  ramp     = var.ramp
  direct   = true

  sweep {
    iodepth = var.iodepths
    numjobs = var.numjobs
  }
}
