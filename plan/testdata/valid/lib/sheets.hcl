# A library file: spec sheets and mixes shared by plans.
spec_sheet "acme-a1" {
  vendor      = "ACME"
  model       = "A1"
  capacity    = "1.92TB"
  interface   = "PCIe 4.0 x4"
  description = "Test sheet."
  spec {
    rand_read_4k = { iops = 500000, rw = "randread", bs = "4KiB", iodepth = 64, pcie_gen = 4 }
    seq_read     = { bw = "6GB/s", rw = "read", bs = kib(128) }
  }
}

mix "web" {
  description = "Small reads with a hot spot."
  read_pct    = 95
  random_pct  = 80
  bs_split    = { "4KiB" = 60, "16KiB" = 40 }
  zones       = [{ access_pct = 90, region_pct = 10 }, { access_pct = 10, region_pct = 90 }]
}
