drive "scratch" {
  size     = "4MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "200ms"
}

report {
  formats = ["markdown", "json"]
  summary = { script = "summary.star", function = "summary" }
}
