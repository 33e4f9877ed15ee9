variable "target" { default = "" }
variable "engine" { default = "native" }

drive "d" {
  path     = var.target
  size     = "16MiB"
  writable = true
  engine   = var.engine
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "1MiB"
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "300ms"
  sweep { iodepth = [1, 2] }
}
