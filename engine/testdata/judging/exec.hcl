drive "d" {
  size     = "4MiB"
  writable = true
}

exec "metrics" {
  command = ["sh", "-c", "echo \"tps = 41.5\"; echo \"dir=$DRIVEBENCH_DRIVE_DIR\" >&2; echo $PLAN_VALUE > made-here.txt"]
  env     = { PLAN_VALUE = "from the plan" }
  parse   = { script = "hooks.star", function = "parse_kv" }
  expect  = [result.metrics.tps > 40, result.metrics.tps > 50]
}

exec "fails" {
  command = ["sh", "-c", "echo partial; echo 'disk on fire' >&2; exit 3"]
}

exec "slow" {
  command = ["sleep", "60"]
  timeout = "200ms"
}

exec "unparsable" {
  command = ["echo", "nothing to see"]
  parse   = { script = "hooks.star", function = "parse_kv" }
}

report {
  summary = { script = "hooks.star", function = "summary" }
}
