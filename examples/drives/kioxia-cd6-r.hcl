# KIOXIA CD6-R: PCIe 4.0 read-intensive data-centre SSD (1 DWPD), as its
# spec sheet claims it. Figures without a stated block size or queue depth
# are left without one: the sheet does not say.
#
# Include it in a plan with include = ["../drives/*.hcl"] and hold a drive
# to it with spec_sheet = "kioxia-cd6-r".

spec_sheet "kioxia-cd6-r" {
  vendor      = "KIOXIA"
  model       = "CD6-R"
  interface   = "PCIe 4.0 x4, NVMe 1.4, U.3 (SFF-TA-1001)"
  description = "Read-intensive, 1 drive write per day for 5 years; BiCS FLASH 96-layer 3D TLC; power loss protection."

  spec {
    seq_read      = { bw = "6200MB/s", rw = "read", pcie_gen = 4 }
    seq_write     = { bw = "4000MB/s", rw = "write", pcie_gen = 4 }
    rand_read_4k  = { iops = 1000000, rw = "randread", bs = "4KiB", pcie_gen = 4 }
    rand_write_4k = { iops = 85000, rw = "randwrite", bs = "4KiB", pcie_gen = 4 }

    # The same drive on a PCIe 3.0 link.
    seq_read_gen3      = { bw = "3500MB/s", rw = "read", pcie_gen = 3 }
    seq_write_gen3     = { bw = "2350MB/s", rw = "write", pcie_gen = 3 }
    rand_read_4k_gen3  = { iops = 770000, rw = "randread", bs = "4KiB", pcie_gen = 3 }
    rand_write_4k_gen3 = { iops = 75000, rw = "randwrite", bs = "4KiB", pcie_gen = 3 }

    endurance = { dwpd = 1 }
  }
}
