# Every bad zone of a list is reported, each at its own key or value.

drive "scratch" {
  size     = "16MiB"
  writable = true
}

mix "skew" {
  read_pct = 70
  bs       = "4KiB"
  zones = [
    { access_pct = 80, region_pct = 0 },       # ERROR: Value Out Of Range
    { acess_pct = 20, region_pct = 80 },       # ERROR: Unknown Zone Key
    { access_pct = "lots", region_pct = 20 },  # ERROR: Invalid Percentage
  ]
}

profile "p" {
  mix     = "skew"
  runtime = "1s"
}
