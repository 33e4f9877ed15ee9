# MLPerf Storage's training workloads as dataloader steps: unet3d, resnet50
# and cosmoflow read their data sets with their reader threads and batch
# sizes while an accelerator computes each batch for the H100's compute
# time, and each is judged on its accelerator utilisation (AU) as MLPerf
# Storage judges it: at least 90 % (70 % for cosmoflow). Each data set is
# a file set in a folder of the file system under test, made (and its
# page cache dropped) before its step and removed when the run completes.
#
#   drivebench run -var directory=/mnt/nvme0/mlperf -var scale=0.1 examples/ai/dataloader.hcl
#
# Scaled down to seconds on a scratch folder:
#
#   drivebench run -var-file examples/ai/smoke.vars.hcl examples/ai/dataloader.hcl
#
# (checkpoint.hcl takes the same variables, and the same smoke file.)

variable "directory" {
  description = "Folder on the file system under test for the data sets."
  default     = "/tmp/drivebench-ai"
}

variable "scale" {
  description = "Share of each preset's files in its data set (each keeps at least one batch): 1 is MLPerf Storage's own, 24.6 GB for unet3d, 147 GB for resnet50, 1.48 TB for cosmoflow."
  type        = number
  default     = 0.1
}

variable "passes" {
  description = "Epochs: passes over each data set; MLPerf Storage makes 5."
  type        = number
  default     = 5
}

variable "direct" {
  description = "Read with O_DIRECT, so the page cache does not serve the samples."
  type        = bool
  default     = true
}

testbed "local" {
  description = "the machine this runs on"
}

drive "fs" {
  directory = var.directory
  writable  = true
}

dataloader "unet3d" {
  preset = "unet3d"
  scale  = var.scale
  epochs = var.passes
  direct = var.direct
}

dataloader "resnet50" {
  preset = "resnet50"
  scale  = var.scale
  epochs = var.passes
  direct = var.direct
}

dataloader "cosmoflow" {
  preset = "cosmoflow"
  scale  = var.scale
  epochs = var.passes
  direct = var.direct
}
