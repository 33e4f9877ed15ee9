variable "function" { default = "double_depth" }
variable "args" {
  type    = any
  default = { max = 4 }
}
variable "max_points" { default = 5 }

drive "d" {
  size     = "4MiB"
  writable = true
}

profile "search" {
  rw      = "randread"
  io_size = "256KiB" # a byte count, so every point reads however loaded the machine is
  expect  = [result.read.ios > 0]
  adaptive {
    script     = "hooks.star"
    function   = var.function
    args       = var.args
    max_points = var.max_points
  }
}

check "sees-points" {
  script   = "hooks.star"
  function = "count_points"
  profile  = "search"
}
