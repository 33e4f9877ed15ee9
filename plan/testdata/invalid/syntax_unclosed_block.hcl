drive "d" { # ERROR: Unclosed configuration block
  size     = "1GiB"
  writable = true

profile "p" {
  rw = "read"
}
