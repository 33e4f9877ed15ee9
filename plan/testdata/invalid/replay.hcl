drive "small" {
  size     = "1MiB"
  writable = true
}

drive "readonly" {
  size = "64MiB"
}

profile "missing" {
  drives = ["small"]
  replay {
    file = "traces/nowhere.iolog" # ERROR: Trace Not Found
  }
}

profile "unreadable" {
  drives = ["small"]
  replay {
    file = "traces/bad.iolog" # ERROR: Unreadable Trace
  }
}

profile "which-disk" {
  drives = ["small"]
  replay {
    file = "traces/two-disks.iolog" # ERROR: Trace Of Several Disks
  }
}

profile "no-such-disk" {
  drives = ["small"]
  replay {
    file   = "traces/two-disks.iolog" # ERROR: Disk Not In The Trace
    device = "/dev/sdc"
  }
}

profile "past-the-end" {
  drives = ["small"]
  replay {
    file = "traces/writes.iolog" # ERROR: Empty Replay Window
    skip = "1s"
  }
}

profile "too-big" {
  drives = ["small"]
  replay {
    file = "traces/writes.iolog" # ERROR: Trace Does Not Fit The Region
  }
}

profile "writes-on-readonly" {
  drives = ["readonly"]
  replay {
    file = "traces/writes.iolog" # ERROR: Write To A Drive Not Marked Writable
  }
}

profile "mixed-up" {
  drives = ["readonly"]
  rw     = "randread" # ERROR: Attribute Does Not Apply To A Replay
  sweep {             # ERROR: Block Does Not Apply To A Replay
    iodepth = [1, 2]
  }
  replay {
    file   = "traces/writes.iolog"
    writes = "read"
    speed  = -1 # ERROR: Value Out Of Range
  }
}

profile "bad-writes" {
  drives = ["readonly"]
  replay {
    file   = "traces/writes.iolog"
    writes = "maybe" # ERROR: Unknown Replay Of Writes
  }
}

profile "no-file" {
  drives = ["readonly"]
  replay { # ERROR: Missing Trace File
    speed = 2
  }
}

profile "lag-of-generated" {
  drives  = ["small"]
  rw      = "randread"
  runtime = "1s"
  expect  = [result.replay.lag_p99_us < 100] # ERROR: Replay Figure Of Another Step
}

profile "unknown-lag" {
  drives = ["small"]
  expect = [result.replay.lag_p98_us < 100] # ERROR: Unknown Replay Figure
  replay {
    file   = "traces/two-disks.iolog"
    device = "/dev/sda"
  }
}
