# SK hynix PE6011: PCIe 3.0 read-intensive enterprise SSD, U.2 7 mm, in its
# four capacities. Sequential figures are at 128 KiB, random figures at
# 4 KiB and queue depth 64; the QoS figures are the sheet's "QoS 4KB random"
# latencies, whose percentile and queue depth it does not state.
#
# Include it in a plan with include = ["../drives/*.hcl"] and hold a drive
# to one capacity with spec_sheet = "sk-hynix-pe6011-1.92tb".

spec_sheet "sk-hynix-pe6011-960gb" {
  vendor      = "SK hynix"
  model       = "PE6011"
  capacity    = "960GB"
  interface   = "PCIe 3.0 x4, NVMe 1.3, U.2 7 mm"
  description = "3D V4 TLC; AES-256 encryption; 14 W active, 3.7 W idle."

  spec {
    seq_read_128k  = { bw = "3200MB/s", rw = "read", bs = "128KiB" }
    seq_write_128k = { bw = "650MB/s", rw = "write", bs = "128KiB" }
    rand_read_4k   = { iops = 220000, rw = "randread", bs = "4KiB", iodepth = 64 }
    rand_write_4k  = { iops = 27000, rw = "randwrite", bs = "4KiB", iodepth = 64 }
    qos_read_4k    = { qos_us = 95, rw = "randread", bs = "4KiB" }
    qos_write_4k   = { qos_us = 25, rw = "randwrite", bs = "4KiB" }
  }
}

spec_sheet "sk-hynix-pe6011-1.92tb" {
  vendor      = "SK hynix"
  model       = "PE6011"
  capacity    = "1.92TB"
  interface   = "PCIe 3.0 x4, NVMe 1.3, U.2 7 mm"
  description = "3D V4 TLC; AES-256 encryption; 14 W active, 3.7 W idle."

  spec {
    seq_read_128k  = { bw = "3200MB/s", rw = "read", bs = "128KiB" }
    seq_write_128k = { bw = "1250MB/s", rw = "write", bs = "128KiB" }
    rand_read_4k   = { iops = 410000, rw = "randread", bs = "4KiB", iodepth = 64 }
    rand_write_4k  = { iops = 50000, rw = "randwrite", bs = "4KiB", iodepth = 64 }
    qos_read_4k    = { qos_us = 95, rw = "randread", bs = "4KiB" }
    qos_write_4k   = { qos_us = 25, rw = "randwrite", bs = "4KiB" }
  }
}

spec_sheet "sk-hynix-pe6011-3.84tb" {
  vendor      = "SK hynix"
  model       = "PE6011"
  capacity    = "3.84TB"
  interface   = "PCIe 3.0 x4, NVMe 1.3, U.2 7 mm"
  description = "3D V4 TLC; AES-256 encryption; 14 W active, 3.7 W idle."

  spec {
    seq_read_128k  = { bw = "3200MB/s", rw = "read", bs = "128KiB" }
    seq_write_128k = { bw = "2300MB/s", rw = "write", bs = "128KiB" }
    rand_read_4k   = { iops = 620000, rw = "randread", bs = "4KiB", iodepth = 64 }
    rand_write_4k  = { iops = 67000, rw = "randwrite", bs = "4KiB", iodepth = 64 }
    qos_read_4k    = { qos_us = 95, rw = "randread", bs = "4KiB" }
    qos_write_4k   = { qos_us = 25, rw = "randwrite", bs = "4KiB" }
  }
}

spec_sheet "sk-hynix-pe6011-7.68tb" {
  vendor      = "SK hynix"
  model       = "PE6011"
  capacity    = "7.68TB"
  interface   = "PCIe 3.0 x4, NVMe 1.3, U.2 7 mm"
  description = "3D V4 TLC; AES-256 encryption; 14 W active, 3.7 W idle."

  spec {
    seq_read_128k  = { bw = "3200MB/s", rw = "read", bs = "128KiB" }
    seq_write_128k = { bw = "2450MB/s", rw = "write", bs = "128KiB" }
    rand_read_4k   = { iops = 620000, rw = "randread", bs = "4KiB", iodepth = 64 }
    rand_write_4k  = { iops = 70000, rw = "randwrite", bs = "4KiB", iodepth = 64 }
    qos_read_4k    = { qos_us = 95, rw = "randread", bs = "4KiB" }
    qos_write_4k   = { qos_us = 25, rw = "randwrite", bs = "4KiB" }
  }
}
