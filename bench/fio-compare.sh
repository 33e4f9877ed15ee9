#!/bin/bash
# fio-compare.sh - drivebench's built-in engine against fio on the same jobs.
#
# Runs each workload below with fio and with drivebench two ways: the engine
# driven directly (bench/cmd/nativebench, "engine") and the command line users
# run (`drivebench run` on a one-profile plan, "run"), on the same files,
# rotating which tool goes first, ROUNDS times. It prints one table per way:
# medians over the rounds of IOPS, p50, p99 and p99.9 latency and CPU seconds
# (user + system) per million I/Os for fio and drivebench, and their ratios
# (drivebench / fio; IOPS above 1 and latency below 1 favour drivebench).
# Rate rows run at a percentage of the maximum fio and the engine measured
# uncontrolled in the same round and show how close each came to its target.
#
# The rows: the one-job rows the engine led on, the many-job rows of the
# review methodologies (StorageReview's fio matrix runs iodepth 1-32 x
# numjobs 1-16, fio's default engine is psync with many jobs), and vdbench's
# thread counts, which drivebench's vdbench module runs as the iodepth of one
# job (128 threads is the "QD128 x 1" row; 512 the "vdbench 512" row).
#
# Environment: DIR (work folder, default /tmp/drivebench-bench; it must be on
# a filesystem that accepts O_DIRECT), RUNTIME (seconds per run, default 8),
# ROUNDS (default 3), ONLY (a regular expression selecting workloads; "rate"
# selects the rate curve), VIA ("engine run" by default: which drivebench
# paths to measure).
#
# Latency is fio's lat (submission to completion, --lat_percentiles=1) and
# drivebench's, which under a rate target counts from each I/O's intended
# time. CPU: fio and nativebench are measured as whole processes with GNU
# time; `drivebench run` by the step's own figure in its record (the process
# while the step ran), so plan loading and report rendering are left out.
# The machine's load average is printed before and after: on a shared host
# compare ratios, not absolute figures.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${DIR:-/tmp/drivebench-bench}
RUNTIME=${RUNTIME:-8}
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-.}
VIA=${VIA:-engine run}
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
bench_setup
READF=$DIR/read-2g.dat
WARM=$READF
WRITEF=$DIR/write-2g.dat
bench_file "$READF" "$WRITEF"
RES=$DIR/results.tsv
: >"$RES"

# Workloads: name, then the job as nativebench flags; fio gets the same job
# translated by fio_args, `drivebench run` by plan_of.
R4="-file $READF -rw randread -bs 4096"
WORKLOADS=(
  "buffered 4K randread psync 1 job|$R4 -ioengine psync -numjobs 1 -iodepth 1"
  "buffered 64K seq read psync 1 job|-file $READF -rw read -bs 65536 -ioengine psync -numjobs 1 -iodepth 1"
  "buffered 4K randread psync 2 jobs|$R4 -ioengine psync -numjobs 2 -iodepth 1"
  "buffered 4K randread io_uring QD32|$R4 -ioengine io_uring -numjobs 1 -iodepth 32"
  "O_DIRECT 4K randread psync QD1|$R4 -ioengine psync -numjobs 1 -iodepth 1 -direct"
  "O_DIRECT 4K randread io_uring QD1|$R4 -ioengine io_uring -numjobs 1 -iodepth 1 -direct"
  "O_DIRECT 4K randread io_uring QD32|$R4 -ioengine io_uring -numjobs 1 -iodepth 32 -direct"
  "O_DIRECT 8K 70/30 randrw io_uring QD16|-file $WRITEF -rw randrw -read-pct 70 -bs 8192 -ioengine io_uring -numjobs 1 -iodepth 16 -direct"
  "O_DIRECT 128K seq write io_uring QD8|-file $WRITEF -rw write -bs 131072 -ioengine io_uring -numjobs 1 -iodepth 8 -direct"
  "O_DIRECT 4K randread io_uring QD16 x 16|$R4 -ioengine io_uring -numjobs 16 -iodepth 16 -direct"
  "O_DIRECT 4K randread psync x 16|$R4 -ioengine psync -numjobs 16 -iodepth 1 -direct"
  "O_DIRECT 4K randread io_uring QD32 x 8|$R4 -ioengine io_uring -numjobs 8 -iodepth 32 -direct"
  "O_DIRECT 4K randread psync x 4|$R4 -ioengine psync -numjobs 4 -iodepth 1 -direct"
  "O_DIRECT 4K randread io_uring QD128 x 1|$R4 -ioengine io_uring -numjobs 1 -iodepth 128 -direct"
  "vdbench 512: 4K randread QD512 x 1|$R4 -ioengine io_uring -numjobs 1 -iodepth 512 -direct"
  "vdbench 128: 4K randwrite QD128 x 1|-file $WRITEF -rw randwrite -bs 4096 -ioengine io_uring -numjobs 1 -iodepth 128 -direct"
)
# The rate curve: its uncontrolled maximum, then these percentages of it.
# It runs from the page cache, whose capacity holds still from one run to
# the next; a shared virtual disk's can halve within a minute, and then no
# engine meets a target set from the maximum measured before.
RATE_BASE="buffered 4K randread io_uring QD32"
RATE_PCTS=(10 50 100 120)

flags_of() { local w; for w in "${WORKLOADS[@]}"; do [ "${w%%|*}" = "$1" ] && echo "${w#*|}"; done; }

fio --version
echo "runtime ${RUNTIME}s, $ROUNDS rounds, files in $DIR ($(df -T "$DIR" | awk 'NR==2{print $2}')), $(nproc) CPUs, kernel $(uname -r)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  workloads "$round" "${WORKLOADS[@]}"
  [[ "rate" =~ $ONLY ]] || continue
  read -ra flags <<<"$(flags_of "$RATE_BASE")"
  tools "rate max: $RATE_BASE" "$round" 0 "${flags[@]}"
  max=$(awk -F'\t' -v n="rate max: $RATE_BASE" -v r="$round" '$1==n && $3==r && ($2=="fio" || $2=="engine") {s+=$6; k++} END {printf "%d", s/k}' "$RES")
  for pct in "${RATE_PCTS[@]}"; do
    target=$((max * pct / 100))
    tools "rate ${pct}% of max" "$round" "$target" "${flags[@]}" -rate-iops "$target"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

bench_table
