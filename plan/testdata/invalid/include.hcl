include = ["lib/bad.hcl", "lib/missing-*.hcl"] # ERROR: Include Matches No File

drive "scratch" {
  size       = "1GiB"
  writable   = true
  spec_sheet = "shet" # ERROR: Reference To Undefined Spec Sheet
}

drive "other" {
  size       = "1GiB"
  spec_sheet = "sheet"
  spec {
    x = { iops = 2 } # ERROR: Duplicate Spec Entry
  }
}
