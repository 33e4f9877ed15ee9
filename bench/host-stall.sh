#!/bin/bash
# host-stall.sh - how long the machine itself stops while each tool runs.
#
# On a virtual machine, the host can hold every virtual CPU at once: a CPU
# quota spent before the end of its period, for one. I/O in flight then
# completes late whatever tool issued it, and a p99.9 that lands in those
# stalls measures the host. This script runs each job below with fio (its
# jobs as processes, fio's default), fio --thread (its jobs as threads of
# one process, as drivebench runs them) and drivebench's engine, rotating
# the order, ROUNDS times; beside each run bench/cmd/stallprobe, a thread of
# real-time priority that sleeps 0.5 ms at a time, counts how late it wakes
# (from the run's second second to its last but one). It prints per job and
# tool the medians of IOPS, p99.9 and the stall: milliseconds a second by
# which the probe woke more than 2.5 ms late.
#
# Environment: DIR (work folder, default /tmp/drivebench-bench, on a
# filesystem that accepts O_DIRECT), RUNTIME (seconds per run, at least 4,
# default 6), ROUNDS (default 3), ONLY (a regular expression selecting
# jobs). Root: the probe needs its real-time priority.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${DIR:-/tmp/drivebench-bench}
RUNTIME=${RUNTIME:-6}
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-.}
[ "$RUNTIME" -ge 4 ] || { echo "host-stall.sh: RUNTIME must be at least 4 seconds" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "host-stall.sh: run as root: the probe needs real-time priority" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
bench_setup
PROBE=$DIR/stallprobe
(cd "$HERE/.." && go build -o "$PROBE" ./bench/cmd/stallprobe)
READF=$DIR/read-2g.dat
WARM=""
bench_file "$READF"
RES=$DIR/host-stall.tsv
: >"$RES"
VIA="fio-thread engine"

R4="-file $READF -rw randread -bs 4096 -direct"
JOBS=(
  "O_DIRECT 4K randread psync x 4|$R4 -ioengine psync -numjobs 4 -iodepth 1"
  "O_DIRECT 4K randread psync x 16|$R4 -ioengine psync -numjobs 16 -iodepth 1"
  "O_DIRECT 4K randread io_uring QD32 x 8|$R4 -ioengine io_uring -numjobs 8 -iodepth 32"
  "O_DIRECT 4K randread psync QD1|$R4 -ioengine psync -numjobs 1 -iodepth 1"
)

echo "runtime ${RUNTIME}s, $ROUNDS rounds, $(nproc) CPUs, kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  workloads "$round" "${JOBS[@]}"
done

awk -F'\t' '
  { if (!(($1, $2) in seen)) { seen[$1, $2] = 1; job[++n] = $1; tool[n] = $2 }
    c = ++runs[$1, $2]; iops[$1, $2, c] = $6; p999[$1, $2, c] = $9; stall[$1, $2, c] = $11 }
  '"$AWK_MEDIAN"'
  END {
    printf "%-40s %-10s %9s %10s %10s\n", "job", "tool", "IOPS", "p99.9", "stall ms/s"
    for (i = 1; i <= n; i++)
      printf "%-40s %-10s %9d %9.0fu %10.1f\n", job[i], tool[i], median(iops, job[i], tool[i]),
        median(p999, job[i], tool[i]) / 1000, median(stall, job[i], tool[i])
    print "Medians of the rounds. u: microseconds. stall ms/s: how late, in milliseconds a second, a real-time thread beside the run woke beyond 2.5 ms."
  }' "$RES"
