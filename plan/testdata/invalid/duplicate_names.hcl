drive "a" {
  path = "/dev/sda"
}

drive "a" { # ERROR: Duplicate Drive Name
  path = "/dev/sdb"
}

profile "read" {
  rw      = "read"
  runtime = "10s"
}

profile "read" { # ERROR: Duplicate Profile Name
  rw      = "randread"
  runtime = "10s"
}

profile "no spaces please" { # ERROR: Invalid Name
  rw      = "read"
  runtime = "10s"
}
