spec_sheet "sheet" {
  capacity = var.size # ERROR: Reference To Undeclared Variable
  spec {
    x = { iops = 1, pcie_gen = 12 } # ERROR: Value Out Of Range
  }
}

profile "not-here" { # ERROR: Unsupported block type
}
