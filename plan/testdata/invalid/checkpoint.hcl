drive "dev" {
  path     = "/dev/nvme9n1"
  writable = true
}

drive "scratch" {
  size     = "1GiB"
  writable = true
}

checkpoint "on_device" { # ERROR: File Set On A Device
  preset = "llama3-8b"
  scale  = 0.001
  drives = ["dev"]
}

checkpoint "no_shape" { # ERROR: Missing Checkpoint Shape
  passes = 2
  drives = ["scratch"]
}

checkpoint "unknown" {
  preset = "llama3-7b" # ERROR: Unknown Checkpoint Preset
  ranks  = 2
  size   = "1GiB"
  drives = ["scratch"]
}

checkpoint "too_small" { # ERROR: Checkpoint Too Small
  ranks  = 8
  size   = "1MiB"
  drives = ["scratch"]
}

checkpoint "scale" {
  preset = "llama3-70b"
  scale  = 2 # ERROR: Value Out Of Range
  drives = ["scratch"]
}

checkpoint "expect_figure" {
  ranks  = 2
  size   = "8MiB"
  drives = ["scratch"]
  expect = [
    result.checkpoint.write.slowest_s <= 30,  # ERROR: Unknown Checkpoint Figure
    result.write.bw >= 1e9,                   # ERROR: Unknown Checkpoint Figure
    result.checkpoint.flush.slowest_job_s < 1, # ERROR: Unknown Checkpoint Phase
  ]
}

checkpoint "expect_unit" {
  ranks  = 2
  size   = "8MiB"
  drives = ["scratch"]
  expect = [
    result.checkpoint.write.slowest_job_s <= "30s", # ERROR: Wrong Unit
    "2GB/s" <= result.checkpoint.read.lowest_job_bw, # ERROR: Wrong Unit
  ]
}

checkpoint "expect_no_read_back" {
  ranks     = 2
  size      = "8MiB"
  read_back = false
  drives    = ["scratch"]
  expect    = result.checkpoint.read.aggregate_bw >= gb(2) # ERROR: Checkpoint Reads Nothing Back
}

profile "not_a_checkpoint" {
  rw      = "write"
  bs      = "4KiB"
  runtime = "1s"
  drives  = ["scratch"]
  expect  = result.checkpoint.write.slowest_job_s <= 30 # ERROR: Checkpoint Figure Of Another Step
}
