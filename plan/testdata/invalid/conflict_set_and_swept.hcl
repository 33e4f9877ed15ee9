drive "d" {
  size     = "1GiB"
  writable = true
}

profile "p" {
  rw      = "randread"
  runtime = "1s"
  iodepth = 4 # ERROR: Parameter Both Set And Swept
  sweep {
    iodepth = [1, 2]
  }
}
