# A scratch file standing in for one drive of a batch: the model, serial
# and firmware are declared, so that runs of several "drives" fill a
# catalog. One expectation holds, one cannot (no drive does a billion
# IOPS), so the catalog's roll-up has a pass and a fail per point.
variable "model" {
  type = string
}

variable "serial" {
  type = string
}

variable "firmware" {
  type = string
}

drive "dut" {
  size     = "8MiB"
  writable = true
  model    = var.model
  serial   = var.serial
  firmware = var.firmware
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "300ms"
  sweep {
    iodepth = [1, 4]
  }
  expect = [result.read.iops > 0, result.read.iops > 1000000000]
}
