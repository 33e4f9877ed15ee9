drive "scratch" {
  size     = "1GiB"
  writable = true
}

drive "other" {
  size     = "1GiB"
  writable = true
}

module "suite" { # ERROR: Missing Module Input
  source = "modules/suite.hcl"
  drives = ["scratch"]
  depth  = 0 # ERROR: Invalid Value For Variable
  dpeth  = 1 # ERROR: Input For Undeclared Variable
}

module "nowhere" {
  source = "modules/none.hcl" # ERROR: Cannot Read File
}

module "sourceless" { # ERROR: Missing Module Source
}
