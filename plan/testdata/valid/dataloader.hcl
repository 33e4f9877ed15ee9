drive "scratch" {
  size     = "1GiB"
  engine   = "fio"
  writable = true
}

dataloader "unet3d" {
  preset = "unet3d"
  scale  = 0.05
  epochs = 2
  expect = [result.dataloader.batch_wait_p99_us < 50000]
}

dataloader "own" {
  batch_size       = 4
  reader_threads   = 2
  files            = 8
  samples_per_file = 2
  record_size      = "64KiB"
  compute_time     = "0s"
  epochs           = 1
  bs               = "16KiB"
  direct           = true
  au_target        = 0.5
}
