# KIOXIA CD6-V: PCIe 4.0 mixed-use data-centre SSD (3 DWPD), as its spec
# sheet claims it, plus the sustained random-write figure the vendor quotes
# (Tom's Hardware's review compares its write-saturation result with it).
#
# Include it in a plan with include = ["../drives/*.hcl"] and hold a drive
# to it with spec_sheet = "kioxia-cd6-v".

spec_sheet "kioxia-cd6-v" {
  vendor      = "KIOXIA"
  model       = "CD6-V"
  interface   = "PCIe 4.0 x4, NVMe 1.4, U.3 (SFF-TA-1001)"
  description = "Mixed-use, 3 drive writes per day for 5 years; BiCS FLASH 96-layer 3D TLC; power loss protection."

  spec {
    seq_read      = { bw = "6200MB/s", rw = "read", pcie_gen = 4 }
    seq_write     = { bw = "4000MB/s", rw = "write", pcie_gen = 4 }
    rand_read_4k  = { iops = 1000000, rw = "randread", bs = "4KiB", pcie_gen = 4 }
    rand_write_4k = { iops = 250000, rw = "randwrite", bs = "4KiB", pcie_gen = 4 }

    # On a PCIe 3.0 link the sheet quotes random writes only.
    rand_write_4k_gen3 = { iops = 165000, rw = "randwrite", bs = "4KiB", pcie_gen = 3 }

    # After prolonged random writes: the level write saturation settles at.
    rand_write_4k_sustained = { iops = 160000, rw = "randwrite", bs = "4KiB", state = "steady" }

    endurance = { dwpd = 3 }
  }
}
