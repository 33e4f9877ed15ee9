# StorageReview's VDBench workload analysis of the SK hynix PE6011 (PCIe
# 3.0), with the thread counts that review published: the same suite as the
# CD6 review, at lower loads and without high-load variants.
#
#   drivebench plan -var target=/dev/nvme0n1 -var spec_sheet=sk-hynix-pe6011-7.68tb \
#     examples/storagereview-vdbench/sk-hynix-pe6011.hcl

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
  description = "Spec sheet the drive is held to: the PE6011 in the capacity tested."
  default     = "sk-hynix-pe6011-7.68tb"
}

variable "runtime" {
  description = "Measured time of each curve step."
  default     = "1m"
}

variable "ramp" {
  description = "Warm-up of each curve step."
  default     = "10s"
}

testbed "dell-r740xd" {
  description = "StorageReview's synthetic benchmark platform"
  facts = {
    server = "Dell PowerEdge R740xd"
    cpu    = "2x Intel Xeon Gold 6130 (2.1 GHz, 16 cores)"
    memory = "4x 16 GB DDR4-2666 ECC"
    hba    = "PERC 730 2 GB; add-in NVMe adapter"
    os     = "Ubuntu 16.04.3"
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
    "4k-random-read"       = 128
    "4k-random-write"      = 64
    "64k-sequential-read"  = 16
    "64k-sequential-write" = 8
  }
  runtime = var.runtime
  ramp    = var.ramp
}
