# null means "not set": a required attribute set to null is missing, and
# every null is reported, not only the first.

variable "quick" {
  default = false
}

drive "scratch" { # ERROR: Missing Scratch File Size
  size     = null
  writable = true
}

profile "conditional" { # ERROR: Missing Run Length # ERROR: Missing I/O Pattern
  rw      = null
  bs      = "4KiB"
  runtime = var.quick ? "5s" : null
}

profile "defaults" { # ERROR: Missing Run Length
  rw      = "randread"
  bs      = null
  iodepth = null
  runtime = null
}

check "c" {
  script   = null # ERROR: Missing required argument
  function = null # ERROR: Missing required argument
  profile  = "defaults"
}
