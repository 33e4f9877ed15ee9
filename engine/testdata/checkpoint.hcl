variable "dir" {
  type = string
}

drive "d" {
  directory = var.dir
  writable  = true
}

checkpoint "ckpt" {
  preset = "llama3-8b"
  scale  = 0.00002
  bs     = "256KiB"
  passes = 2
}
