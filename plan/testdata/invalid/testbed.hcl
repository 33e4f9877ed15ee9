testbed "lab-1" {
  facts = { server = "Dell R760", cpus = ["a"] } # ERROR: Incorrect Value Type
}

testbed "lab-2" { # ERROR: Duplicate Testbed Block
}

drive "scratch" {
  size     = "1GiB"
  writable = yes # ERROR: Unknown Reference
}
