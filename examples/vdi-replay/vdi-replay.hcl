# VDI boot and login, replayed from traces captured on this project's test
# machine: a virtual desktop's boot (random reads of 4, 16 and 64 KiB) and its
# login (4 KiB random 40/60 read/write with a flush every 16 writes), as
# StorageReview's VDI Boot and Initial Login tests replay theirs.
#
# The traces are fio iologs (version 3, microsecond timestamps), captured with
#
#   fio --filename=/dev/vdb --size=512M --direct=1 --ioengine=psync --name=boot --rw=randread \
#       --bssplit=4k/60:16k/20:64k/20 --rate_iops=1500 --number_ios=2400 --write_iolog=traces/boot.iolog
#   fio --filename=/dev/vdb --size=512M --direct=1 --ioengine=psync --name=login --rw=randrw \
#       --rwmixread=40 --bs=4k --rate_iops=400 --number_ios=1600 --fsync=16 --write_iolog=traces/login.iolog
#
# (drivebench trace capture -device DEV -duration D -o FILE records the same
# from the block layer of any workload). Replay them:
#
#   drivebench run examples/vdi-replay/vdi-replay.hcl                       # a scratch file
#   drivebench run -var target=/dev/nvme0n1 examples/vdi-replay/vdi-replay.hcl   # a drive (destroys its data)

variable "target" {
  default     = ""
  description = "Block device or file to replay on; empty for a scratch file in the results folder."
}

variable "speed" {
  default     = 1
  description = "Time scale of the replays: 1 as captured, 10 ten times as fast (a boot storm of ten desktops' worth of rate)."
}

drive "vdi" {
  path     = var.target
  size     = "1GiB"
  writable = true
}

# Write the region once so the boot reads data, not holes.
precondition "fill" {
  pattern = "sequential_write"
  bs      = "1MiB"
  iodepth = 4
  direct  = true
}

profile "boot" {
  iodepth       = 32
  direct        = true
  size          = "512MiB"
  preconditions = ["fill"]
  replay {
    file  = "traces/boot.iolog"
    speed = var.speed
  }
}

profile "login" {
  iodepth = 32
  direct  = true
  size    = "512MiB"
  replay {
    file  = "traces/login.iolog"
    speed = var.speed
  }
}
