# Scales pts-e.hcl down to the first 64 MiB of a small NVMe namespace and
# seconds, to check that the plan runs end to end and that its report
# carries what PTS publishes. Five rounds are the fewest that can reach
# steady state: the window is 5 rounds.
#
#   drivebench run -var target=/dev/nvme0n1 -var-file examples/snia-pts-enterprise/smoke.vars.hcl examples/snia-pts-enterprise/pts-e.hcl

size                = "64MiB"
runtime             = "1s"
max_rounds          = 5
saturation          = "4s"
workers             = 1
queue_depth         = 4
iops_block_sizes    = ["64KiB", "4KiB"]
iops_read_shares    = [65, 0]
latency_block_sizes = ["4KiB"]
latency_read_shares = [100, 0]
