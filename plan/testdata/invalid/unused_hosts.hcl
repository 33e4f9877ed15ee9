testbed "lab" {
  hosts = ["10.0.0.2:8765", "10.0.0.3:8765"] # ERROR: Hosts Without The fio Engine
}

drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "read" {
  rw      = "read"
  runtime = "1s"
}
