#!/usr/bin/env bash
# catalog.sh - the catalog's benchmark on SQLite and on PostgreSQL.
#
# bench/cmd/catalogbench adds RUNS runs of STEPS steps each, generated from
# the real records of reports/testdata/vendor-acceptance (histograms
# rescaled per drive, DRIVES drives of five models, a newer firmware on
# each round of runs), one run per transaction as drivebench run adds its
# own, and then times the fleet, roll-up, trend and ls queries three times
# each. It prints, per database, the ingest time per run (mean, p50, p99,
# max), the catalog's size and the query times, as Markdown.
#
# SQLite: a file in DIR (default /tmp/drivebench-catalog-bench), in WAL
# mode as the catalog always opens it. PostgreSQL: a throwaway server
# (scripts/postgres-server.sh) with its data in /tmp and fsync on. Both
# live on the same disk. Needs root for the PostgreSQL half; without it
# only SQLite is measured.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/.."
DIR=${DIR:-/tmp/drivebench-catalog-bench}
RUNS=${RUNS:-10000}
STEPS=${STEPS:-50}
DRIVES=${DRIVES:-2500}
mkdir -p "$DIR"
go build -o "$DIR/catalogbench" ./bench/cmd/catalogbench
args=(-runs "$RUNS" -steps "$STEPS" -drives "$DRIVES" -fixture reports/testdata/vendor-acceptance)

rm -f "$DIR/bench.db" "$DIR/bench.db-wal" "$DIR/bench.db-shm"
"$DIR/catalogbench" -catalog "$DIR/bench.db" "${args[@]}"
echo
ls -l "$DIR"/bench.db* | awk '{print "    " $5 " bytes  " $9}'
rm -f "$DIR/bench.db" "$DIR/bench.db-wal" "$DIR/bench.db-shm"
echo

# shellcheck source=../scripts/postgres-server.sh
source scripts/postgres-server.sh
unset DRIVEBENCH_TEST_POSTGRES
PG_FSYNC=on postgres_start
trap postgres_stop EXIT
if [ -z "${DRIVEBENCH_TEST_POSTGRES:-}" ]; then
  echo "PostgreSQL could not be started here: only SQLite was measured"
  exit 0
fi
"$DIR/catalogbench" -catalog "$DRIVEBENCH_TEST_POSTGRES" "${args[@]}"
