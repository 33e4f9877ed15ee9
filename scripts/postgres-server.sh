#!/usr/bin/env bash
# A throwaway PostgreSQL server for the catalog's tests and benchmark.
# Source this file, then:
#   postgres_start   start a server in a new temporary folder on a free
#                    port and export DRIVEBENCH_TEST_POSTGRES (its DSN)
#   postgres_stop    stop it and remove its folder
# PG_FSYNC=on makes it durable (the benchmark); tests run with fsync off.
# It needs root (the server runs as the postgres account) and Debian's
# postgresql package; without them it says why, exports nothing and
# returns 0. As root with the package installed, a server that cannot
# be set up or started is a failure: it prints why and returns 1.

postgres_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

postgres_start() {
  local bin
  bin=$(postgres_bin)
  if [ "$(id -u)" != 0 ] || [ -z "$bin" ]; then
    echo "== PostgreSQL: needs root and Debian's postgresql package (/usr/lib/postgresql); the catalog's PostgreSQL tests will skip, or fail under DRIVEBENCH_REQUIRE=all"
    return 0
  fi
  if ! id postgres >/dev/null 2>&1; then
    echo "== PostgreSQL: $bin is installed but there is no postgres account to run the server as (apt-get install --reinstall postgresql-common)"
    return 1
  fi
  PG_TMP=$(mktemp -d /tmp/drivebench-pg.XXXXXX)
  chown postgres: "$PG_TMP"
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 54329)
  su postgres -s /bin/sh -c "'$bin/initdb' -D '$PG_TMP/data' -A trust -U postgres --no-sync" >"$PG_TMP/initdb.log" 2>&1 ||
    { cat "$PG_TMP/initdb.log"; echo "== PostgreSQL: initdb failed (its output is above)"; return 1; }
  su postgres -s /bin/sh -c "'$bin/pg_ctl' -D '$PG_TMP/data' -l '$PG_TMP/server.log' -w -t 120 \
    -o \"-p $port -k $PG_TMP -c listen_addresses=127.0.0.1 -c fsync=${PG_FSYNC:-off} -c max_connections=100\" start" >/dev/null ||
    { cat "$PG_TMP/server.log"; echo "== PostgreSQL: the server did not start on port $port (its log is above)"; return 1; }
  export DRIVEBENCH_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
  echo "== PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on port $port"
}

postgres_stop() {
  [ -n "${PG_TMP:-}" ] || return 0
  su postgres -s /bin/sh -c "'$(postgres_bin)/pg_ctl' -D '$PG_TMP/data' -m fast -w stop" >/dev/null 2>&1 || true
  rm -rf "$PG_TMP"
  unset PG_TMP DRIVEBENCH_TEST_POSTGRES
}
