# VDI boot and login, replayed from block-layer traces captured on this
# project's test machine, as StorageReview's VDI Boot and Initial Login tests
# replay theirs: the boot reads a desktop's programs cold (1,500 Python
# modules of a 1 GiB ext4 disk, four readers at once: 777 reads, 13.8 MB);
# the login writes its profile (120 files of 4 to 28 KiB, each synced, beside
# a few reads: 372 writes and 241 flushes).
#
# Each trace was recorded with drivebench trace capture while the workload ran
# on a freshly mounted ext4 file system of a 1 GiB loop device:
#
#   truncate -s 1G disk.img && dev=$(losetup --find --show disk.img) && mkfs.ext4 -q $dev
#   mount $dev mnt && cp -a /usr/lib/python3.11 mnt/apps && mkdir mnt/profile && umount mnt && mount $dev mnt
#   drivebench trace capture -device $dev -duration 12s -o traces/boot.iolog &
#   (cd mnt/apps && find . -type f -name '*.py' | head -1500 | xargs -P 4 -n 50 cat >/dev/null)
#   drivebench trace capture -device $dev -duration 12s -o traces/login.iolog &
#   (cd mnt/profile && for i in $(seq 1 120); do head -c $(( (i % 7 + 1) * 4096 )) /dev/urandom >ntuser$i.dat; sync -d ntuser$i.dat; done)
#
# drivebench trace stat traces/boot.iolog prints what a trace holds. Replay them:
#
#   drivebench run examples/vdi-replay/vdi-replay.hcl                            # a scratch file
#   drivebench run -var speed=10 examples/vdi-replay/vdi-replay.hcl              # ten desktops' worth of rate
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
  size     = "1GiB" # the traces address the 1 GiB disk they were captured on
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
  preconditions = ["fill"]
  replay {
    file  = "traces/boot.iolog"
    speed = var.speed
  }
}

profile "login" {
  iodepth = 32
  direct  = true
  replay {
    file  = "traces/login.iolog"
    speed = var.speed
  }
}
