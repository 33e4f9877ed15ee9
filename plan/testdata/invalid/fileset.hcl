drive "dev" {
  path     = "/dev/nvme9n1"
  writable = true
}

drive "dir" {
  directory = "/mnt/bench"
}

drive "scratch" {
  writable = true
}

profile "on_device" { # ERROR: File Set On A Device
  rw        = "write"
  io_size   = "100%"
  files     = 4
  file_size = "1MiB"
  drives    = ["dev"]
}

profile "not_writable" { # ERROR: Write To A Drive Not Marked Writable
  rw        = "read"
  io_size   = "100%"
  files     = 4
  file_size = "1MiB"
  drives    = ["dir"]
}

profile "no_size" { # ERROR: Missing File Size
  rw      = "read"
  io_size = "100%"
  files   = 4
  drives  = ["scratch"]
}

profile "files_expect" {
  rw        = "read"
  io_size   = "100%"
  files     = 4
  file_size = "1MiB"
  expect    = [result.files.open_p98_us < 10] # ERROR: Unknown File-Set Figure
  drives    = ["scratch"]
}

profile "not_a_set_expect" {
  rw      = "read"
  runtime = "1s"
  expect  = [result.files.open_p99_us < 10] # ERROR: File-Set Figure Of Another Step
  drives  = ["dev"]
}

profile "no_files" {
  rw         = "read"
  runtime    = "1s"
  open_files = 4 # ERROR: File-Set Attribute Without Files
  drives     = ["dev"]
}

profile "bad_service" {
  rw           = "read"
  io_size      = "100%"
  files        = 4
  file_size    = { "1MiB" = 50, "4MiB" = 50 }
  file_service = "zipf" # ERROR: Unknown File Selection
  drives       = ["scratch"]
}

profile "region" {
  rw        = "read"
  io_size   = "100%"
  files     = 4
  file_size = "1MiB"
  size      = "1GiB" # ERROR: Attribute Does Not Fit A File Set
  drives    = ["scratch"]
}

profile "create_read" {
  rw             = "read"
  io_size        = "100%"
  files          = 4
  file_size      = "1MiB"
  create_on_open = true # ERROR: Create On Open Without Writes
  drives         = ["scratch"]
}
