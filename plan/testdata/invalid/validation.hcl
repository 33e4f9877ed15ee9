# VAR: depth=0
variable "depth" {
  type = number
  validation {
    condition     = var.depth > 0 # ERROR: Invalid Value For Variable
    error_message = "depth must be at least 1."
  }
}

variable "size" {
  default = "1 furlong" # ERROR: Invalid Value For Variable
  validation {
    condition     = can(parse_size(var.size))
    error_message = "size must be a size such as \"1GiB\"."
  }
}

variable "label" {
  default = "x"
  validation {
    condition     = var.depth > 0 # ERROR: Invalid Validation Condition
    error_message = "label refers to another variable."
  }
  validation {
    condition     = strlen(var.label) # ERROR: Invalid Validation Condition
    error_message = "not a bool."
  }
  validation { # ERROR: Missing required argument
    condition = true
  }
}

drive "scratch" {
  size     = "1GiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  iodepth = var.depth
  runtime = "1s"
}
