drive "scratch" {
  size     = "1GiB"
  writable = true
}

dataloader "typo" {
  preset = "unet3" # ERROR: Unknown Dataloader Preset
}

dataloader "bare" { # ERROR: Missing Dataloader Parameter
  batch_size = 4
}

dataloader "ranges" {
  preset         = "cosmoflow"
  scale          = 0    # ERROR: Value Out Of Range
  au_target      = 1.5  # ERROR: Value Out Of Range
  reader_threads = 0    # ERROR: Value Out Of Range
  expect         = [result.dataloader.au_pct > 1] # ERROR: Unknown Dataloader Figure
}

profile "plain" {
  rw         = "read"
  runtime    = "1s"
  batch_size = 4                               # ERROR: Unsupported argument
  expect     = [result.dataloader.au >= 0.9] # ERROR: Dataloader Figure Of Another Step
}

dataloader "percent" {
  preset = "resnet50"
  scale  = 0.001
  expect = [result.dataloader.au >= 90] # ERROR: Wrong Unit
}
