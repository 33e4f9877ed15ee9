# Dividing by zero is an error, not a silent 5 (%) or infinity (/).

drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "a" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1s"
  numjobs = 5 % 0 # ERROR: Operation failed
  iodepth = 4 / 0 # ERROR: Operation failed
}
