testbed "lab" {
  parallel = "sometimes" # ERROR: Incorrect Value Type
  engine   = "spdk"      # ERROR: Unknown Engine
  hosts    = ["10.0.0.2"] # ERROR: Invalid Host
}

drive "scratch" {
  size     = "1GiB"
  writable = true
}
