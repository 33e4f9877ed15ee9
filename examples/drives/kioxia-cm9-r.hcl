# KIOXIA CM9-R 15.36 TB: PCIe 5.0 read-intensive enterprise SSD (1 DWPD),
# the model StorageReview's fio matrix review tested (KCM9XRJE15T3, E3.S).
# The vendor measures its random-read figure at a queue depth beyond what
# that review's matrix reaches (IODepth 32 x NumJobs 16); the sheet does not
# state it, so the entry carries none.
#
# Include it in a plan with include = ["../drives/*.hcl"] and hold a drive
# to it with spec_sheet = "kioxia-cm9-r-15.36tb".

spec_sheet "kioxia-cm9-r-15.36tb" {
  vendor      = "KIOXIA"
  model       = "CM9-R"
  capacity    = "15.36TB"
  interface   = "PCIe 5.0 x4 (dual-port x2), NVMe 2.0, E3.S"
  description = "Read-intensive, 1 drive write per day; BiCS FLASH generation 8 (CBA); 25 W typical active power."

  spec {
    seq_read      = { bw = "14800MB/s", rw = "read", pcie_gen = 5 }
    seq_write     = { bw = "11000MB/s", rw = "write", pcie_gen = 5 }
    rand_read_4k  = { iops = 3400000, rw = "randread", bs = "4KiB", pcie_gen = 5 }
    rand_write_4k = { iops = 540000, rw = "randwrite", bs = "4KiB", pcie_gen = 5 }

    power     = { watts_typical = 25 }
    endurance = { dwpd = 1 }
  }
}
