# StorageReview's VDBench workload analysis of the KIOXIA CD6 (PCIe 4.0),
# with the thread counts that review published, including the high-load
# variants: fill the drive, then 20 rate curves on a 25 % region.
#
#   drivebench plan -var target=/dev/nvme0n1 examples/storagereview-vdbench/kioxia-cd6.hcl
#
# A quick run on a scratch file, scaled down:
#
#   drivebench run -var target= -var size=256MiB -var runtime=1s -var ramp=0s \
#     examples/storagereview-vdbench/kioxia-cd6.hcl

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
  default     = "kioxia-cd6-r"
}

variable "runtime" {
  description = "Measured time of each curve step."
  default     = "1m"
}

variable "ramp" {
  description = "Warm-up of each curve step."
  default     = "10s"
}

testbed "lenovo-sr635" {
  description = "StorageReview's PCIe Gen4 synthetic and application platform"
  facts = {
    server = "Lenovo ThinkSystem SR635"
    cpu    = "1x AMD EPYC 7452 (2.35 GHz, 32 cores)"
    memory = "8x 64 GB DDR4-3200 ECC"
    os     = "CentOS 7.7 1908"
  }
}

drive "dut" {
  path       = var.target
  size       = var.size
  writable   = true
  spec_sheet = var.spec_sheet
}

module "vdbench" {
  source = "../modules/storagereview-vdbench.hcl"
  threads = {
    "4k-random-read"            = 128
    "4k-random-write"           = 128
    "4k-random-read-high"       = 512
    "4k-random-write-high"      = 512
    "64k-sequential-read"       = 32
    "64k-sequential-write"      = 16
    "64k-sequential-read-high"  = 64
    "64k-sequential-write-high" = 64
  }
  runtime = var.runtime
  ramp    = var.ramp
}
