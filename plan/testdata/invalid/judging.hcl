drive "ssd" {
  size     = "1GiB"
  writable = true
  spec {
    rand_read_4k = { iops = 100000, rw = "randread", bs = "4KiB" }
  }
}

drive "ro" {
  path = "/dev/sdz"
}

drive "both" {
  path      = "/dev/sdy"
  directory = "/mnt/x" # ERROR: Both Path And Directory
}

drive "nothing" {
  directory = "" # ERROR: Empty Directory
}

drive "folder" {
  directory = "/mnt/folder"
  writable  = true
}

profile "writes" {
  rw      = "randwrite"
  runtime = "1s"
  drives  = ["ssd"]
  expect = [
    result.read.iops > 1,              # ERROR: Direction Never Measured
    result.write.iopz > 1,             # ERROR: Unknown Statistic
    result.write.lat.p99 < 5,          # ERROR: Unknown Latency Statistic
    result.write.p99 < 5,              # ERROR: Unknown Statistic
    result.metrics.tps > 1,            # ERROR: Metrics Of A Profile
    result.wrte.iops > 1,              # ERROR: Unknown Result Field
    result.write.iops > spec.seq.iops, # ERROR: Reference To Undefined Spec Entry
    spec.rand_read_4k.lat_us > 1,      # ERROR: Spec Entry Lacks The Figure
    result.write.iops > "fast",        # ERROR: Wrong Unit
    result.write.iops,                 # ERROR: Expectation Is Not A Condition
    drive.size > 0,                    # ERROR: Unknown Reference
  ]
}

profile "none" {
  rw      = "randread"
  runtime = "1s"
  drives  = ["ssd"]
  expect  = [] # ERROR: Empty Expectation List
}

profile "on-folder" { # ERROR: Missing Size Of A Directory Drive
  rw      = "randread"
  runtime = "1s"
  drives  = ["folder"]
}

profile "mixed-up" {
  rw      = "randread"
  runtime = "1s"
  drives  = ["ssd"]
  sweep { iodepth = [1, 2] }
  adaptive { # ERROR: Adaptive Sweep With Fixed Points
    script   = "hooks/judge.star"
    function = "double"
  }
}

profile "search" {
  rw      = "randread"
  runtime = "1s"
  drives  = ["ssd"]
  adaptive {
    script     = "hooks/missing.star" # ERROR: Hook Script Not Found
    function   = "next-point"         # ERROR: Invalid Function Name
    max_points = 0                    # ERROR: Value Out Of Range
  }
}

profile "steady" {
  rw      = "randwrite"
  runtime = "1s"
  drives  = ["ssd"]
  steady_state {
    window = 3                                                                # ERROR: SNIA Criterion With A Hook
    hook   = { script = "hooks/judge.star", function = "flat", scirpt = "x" } # ERROR: Unknown Hook Key
  }
}

profile "steady2" {
  rw      = "randwrite"
  runtime = "1s"
  drives  = ["ssd"]
  steady_state {
    hook = { script = "hooks/judge.star" } # ERROR: Incomplete Hook
  }
}

exec "writes" { # ERROR: Duplicate Step Name
  command = ["true"]
  drives  = ["ssd"]
}

exec "empty" {
  command = [] # ERROR: Empty Command
  drives  = ["ssd"]
}

exec "env" {
  command = ["true"]
  drives  = ["ssd"]
  env = {
    DRIVEBENCH_DRIVE = "x" # ERROR: Reserved Environment Variable
    "1BAD"           = "y" # ERROR: Invalid Environment Variable
  }
  user    = ""                     # ERROR: Value Out Of Range
  timeout = "0"                    # ERROR: Value Out Of Range
  expect  = [result.read.iops > 1] # ERROR: I/O Statistics Of An Exec Step
}

exec "readonly" {
  command = ["true"] # ERROR: Write To A Drive Not Marked Writable
  drives  = ["ro"]
}

accept "sheet" {
  drives        = ["ssd", "folder"] # ERROR: Drive Without A Spec
  tolerance_pct = 100               # ERROR: Value Out Of Range
  pcie_gen      = 12                # ERROR: Value Out Of Range
}

accept "picky" {
  profiles = ["nope", "env"]   # ERROR: Reference To Undefined Profile # ERROR: Exec Step Among The Profiles
  entries  = ["rand_write_4k"] # ERROR: Reference To Undefined Spec Entry
}

report {
  summary = "hooks/judge.star" # ERROR: Incorrect Value Type
}
