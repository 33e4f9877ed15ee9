# ERROR: No Drive To Test
profile "read" {
  rw      = "read"
  runtime = "10s"
}
