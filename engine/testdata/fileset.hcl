variable "dir" {
  type = string
}

drive "d" {
  directory = var.dir
  writable  = true
}

profile "write_set" {
  rw             = "write"
  bs             = "64KiB"
  numjobs        = 2
  files          = 8
  file_size      = "256KiB"
  dirs           = 2
  fsync_on_close = true
  io_size        = "100%"
  expect         = [result.files.slowest_job_s < 600, result.files.fsync_p99_us < 60000000, result.files.lowest_job_bw > 0]
}

profile "read_set" {
  rw           = "randread"
  bs           = "4KiB"
  files        = 8
  file_size    = "256KiB"
  dirs         = 2
  file_service = "zipf:1.2"
  open_files   = 2
  drop_cache   = true
  io_size      = "1MiB"
}
