mix "sql" { # ERROR: Mix Name Taken By A Preset
  read_pct = 50
}

mix "weights" {
  read_pct = 50
  bs_split = { "4KiB" = 60, "8KiB" = 30 } # ERROR: Weights Do Not Add Up
}

mix "sizes" {
  read_pct = 50
  bs_split = { "4KiB" = 50, "4096" = 50 } # ERROR: Duplicate Transfer Size
}

mix "both" {
  read_pct = 50
  bs       = "4KiB"
  bs_split = { "4KiB" = 100 } # ERROR: Conflicting Transfer Sizes
}

mix "zones" {
  read_pct = 50
  zones    = [{ access_pct = 80, region_pct = 20 }, { access_pct = 30, region_pct = 80 }] # ERROR: Zones Do Not Add Up
}

mix "zone-keys" {
  read_pct = 50
  zones    = [{ access = 80, region_pct = 20 }] # ERROR: Unknown Zone Key
}

mix "shares" {
  read_pct   = 120 # ERROR: Value Out Of Range
  random_pct = 50
  bs_split   = { "4 parsecs" = 100 } # ERROR: Invalid Size
}

drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "oltp" {
  mix     = "sql-90-01" # ERROR: Reference To Undefined Mix
  runtime = "1s"
}

profile "seq" {
  rw         = "read"
  random_pct = 50 # ERROR: Random Share On A Sequential Pattern
  runtime    = "1s"
}

profile "rand" {
  rw         = "randread"
  random_pct = 0 # ERROR: Value Out Of Range
  runtime    = "1s"
}
