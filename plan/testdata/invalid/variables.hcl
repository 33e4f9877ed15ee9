# VAR: runtime=ten
# VAR: depths=[1, 4, "x"]
variable "target" { # ERROR: Missing Variable Value
  description = "The device to test."
}

variable "runtime" { # ERROR: Invalid Value For Variable
  type    = number
  default = 10
}

variable "depths" { # ERROR: Invalid Value For Variable
  type    = list(number)
  default = [1]
}

variable "size" {
  default = var.target # ERROR: Variables Not Allowed
}

variable "count" {
  type    = number
  default = "many" # ERROR: Invalid Default Value
}

drive "scratch" {
  path     = var.target
  size     = var.sise # ERROR: Reference To Undeclared Variable
  writable = true
}

profile "read" {
  rw      = self.mode # ERROR: Unknown Reference
  runtime = var.runtime
}
