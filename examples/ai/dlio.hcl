# DLIO itself (dlio_benchmark, the engine of MLPerf Storage) run as exec
# steps, where it is installed (pip install dlio_benchmark, with MPI):
# it generates a workload's data set in a folder of the file system
# under test, trains on it and prints its figures, which a parse hook
# reads (hooks/dlio.star) and an expectation judges as MLPerf Storage
# does, beside dataloader.hcl's own run of the same shapes.
#
# drivebench's tests do not run this plan: DLIO is a Python package the
# machines that test drivebench do not have. They load the plan and test
# its parse hook on DLIO's documented output (hooks/dlio_test.star).
#
#   drivebench run -var directory=/mnt/nvme0/dlio examples/ai/dlio.hcl

variable "directory" {
  description = "Folder on the file system under test; empty for a folder in the results folder, removed afterwards."
  default     = ""
}

variable "workload" {
  description = "DLIO's workload configuration: unet3d_h100, resnet50_h100, cosmoflow_h100, or another of its configs/workload."
  default     = "unet3d_h100"
}

variable "files" {
  description = "Files in the data set (unet3d_h100's own is 168)."
  type        = number
  default     = 168
}

variable "epochs" {
  description = "Training epochs (MLPerf Storage runs 5)."
  type        = number
  default     = 5
}

variable "au_target_pct" {
  description = "The accelerator utilisation the run must reach, in percent (MLPerf Storage: 90, 70 for cosmoflow)."
  type        = number
  default     = 90
}

locals {
  dataset = ["workload=${var.workload}", "++workload.dataset.data_folder=dlio-data", "++workload.dataset.num_files_train=${var.files}"]
}

drive "fs" {
  directory = var.directory == "" ? null : var.directory
  writable  = true
}

exec "datagen" {
  command = concat(["dlio_benchmark"], local.dataset, ["++workload.workflow.generate_data=True", "++workload.workflow.train=False"])
  timeout = "4h"
}

exec "train" {
  command = concat(["dlio_benchmark"], local.dataset, [
    "++workload.workflow.generate_data=False",
    "++workload.workflow.train=True",
    "++workload.workflow.checkpoint=False",
    "++workload.train.epochs=${var.epochs}",
    "++hydra.run.dir=dlio-output",
  ])
  timeout = "12h"
  parse   = { script = "hooks/dlio.star", function = "train" }
  expect  = [result.metrics.au_pct >= var.au_target_pct]
}

exec "cleanup" {
  command = ["rm", "-rf", "dlio-data", "dlio-output"]
}
