drive "data" {
  path = "/dev/sdb"
}

drive "scratch" {
  size     = "1GiB"
  writable = true
}

precondition "fill" {
  pattern = "random_write" # ERROR: Write To A Drive Not Marked Writable
}

profile "seq-write" {
  rw      = "write" # ERROR: Write To A Drive Not Marked Writable
  runtime = "10s"
}

profile "scratch-only" {
  rw      = "write"
  runtime = "10s"
  drives  = ["scratch"]
}

profile "mixed-sweep" {
  runtime = "10s"
  sweep {
    rw = ["randread", "randrw"] # ERROR: Write To A Drive Not Marked Writable
  }
}
