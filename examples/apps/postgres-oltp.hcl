# sysbench OLTP against PostgreSQL, with the database's data directory on
# the drive under test. The plan runs its own server, apart from any the
# machine has: it creates a data directory in a folder on the drive's file
# system, starts a server on a port of its own (TCP on 127.0.0.1 only),
# creates the test database, loads sysbench's tables, runs the OLTP
# read/write mix at each thread count, and stops the server. A parse hook
# turns sysbench's output into TPS, QPS and latency (average, 95th
# percentile), which the report shows beside the synthetic profiles.
#
#   drivebench run -var directory=/mnt/nvme0/pgbench examples/apps/postgres-oltp.hcl
#
# PostgreSQL refuses to run as root, so the server's steps run as the
# account pg_user (postgres, which Debian's package creates), and
# drivebench runs as root to switch to it. The folder is created for
# that account if missing; it and every folder above it must be open to
# it. Debian: apt-get install postgresql sysbench (the packaged server
# need not be running). On another release, point pg_bin at its
# PostgreSQL programs.

variable "directory" {
  description = "Folder on the file system under test for the data directory."
  type        = string
}

variable "pg_bin" {
  description = "Folder of PostgreSQL's programs (initdb, pg_ctl, createdb); Debian 12 ships version 15."
  default     = "/usr/lib/postgresql/15/bin"
}

variable "pg_user" {
  description = "Account the server runs as."
  default     = "postgres"
}

variable "port" {
  description = "TCP port of the plan's server, on 127.0.0.1; choose one no other server uses."
  type        = number
  default     = 54329
}

variable "tables" {
  description = "sysbench tables."
  type        = number
  default     = 8
}

variable "table_size" {
  description = "Rows per table; 100000 rows take about 25 MB."
  type        = number
  default     = 100000
}

variable "threads" {
  description = "Client thread counts to run the OLTP mix with."
  type        = list(number)
  default     = [1, 8, 32]
}

variable "runtime" {
  description = "Seconds each OLTP run lasts."
  type        = number
  default     = 60
}

variable "p95_limit_ms" {
  description = "The 95th percentile transaction latency each run must stay under, in ms."
  type        = number
  default     = 100
}

locals {
  database = [
    "--db-driver=pgsql",
    "--pgsql-host=127.0.0.1",
    "--pgsql-port=${var.port}",
    "--pgsql-user=postgres",
    "--pgsql-db=sbtest",
    "--tables=${var.tables}",
    "--table-size=${var.table_size}",
  ]
  server_options = "-p ${var.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
}

drive "pg" {
  directory = var.directory
  writable  = true
}

# A data directory left by an earlier run (or a resumed one) is removed
# first, so that every run starts from an empty cluster.
exec "clean" {
  command = ["rm", "-rf", "pgdata", "server.log"]
  user    = var.pg_user
}

exec "initdb" {
  command = ["${var.pg_bin}/initdb", "-D", "pgdata", "-U", "postgres", "--auth=trust", "-E", "UTF8"]
  user    = var.pg_user
  timeout = "5m"
}

exec "start" {
  command = ["${var.pg_bin}/pg_ctl", "-D", "pgdata", "-l", "server.log", "-o", local.server_options, "-w", "-t", "120", "start"]
  user    = var.pg_user
  timeout = "3m"
}

exec "createdb" {
  command = ["${var.pg_bin}/createdb", "-h", "127.0.0.1", "-p", "${var.port}", "-U", "postgres", "sbtest"]
}

exec "prepare" {
  command = concat(["sysbench", "oltp_read_write"], local.database, ["prepare"])
  timeout = "2h"
}

exec "oltp" {
  for_each = [for t in var.threads : "${t}-threads"]

  command = concat(["sysbench", "oltp_read_write"], local.database, [
    "--threads=${trimsuffix(each.key, "-threads")}",
    "--time=${var.runtime}",
    "--percentile=95",
    "run",
  ])
  timeout = "${var.runtime + 300}s"
  parse   = { script = "hooks/sysbench.star", function = "oltp" }
  expect  = [result.metrics.latency_p95_ms < var.p95_limit_ms]
}

exec "stop" {
  command = ["${var.pg_bin}/pg_ctl", "-D", "pgdata", "-m", "fast", "-w", "stop"]
  user    = var.pg_user
}

report {
  summary = { script = "hooks/summary.star", function = "applications" }
}
