# Scales thg-cd6v.hcl down to a scratch file and seconds, to check that the
# plan runs end to end:
#
#   drivebench run -var-file examples/thg-cd6v/smoke.vars.hcl examples/thg-cd6v/thg-cd6v.hcl

target      = ""
size        = "256MiB"
runtime     = "1s"
ramp        = "0s"
saturation  = "12s"
workers     = 2
queue_depth = 4
block_sizes = ["1MiB", "64KiB", "4KiB"]
