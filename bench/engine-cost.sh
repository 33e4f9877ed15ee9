#!/bin/bash
# engine-cost.sh - what one I/O costs the engine itself, against fio, on a
# device that costs next to nothing: a loop device over a file in a tmpfs of
# the script's own, set up here and removed on exit, so neither tool waits
# for a disk and the CPU each spends per I/O is its own and the kernel's
# block layer's.
#
# O_DIRECT 4K random reads at iodepth 1, 32 and 128 (io_uring) and 1
# (psync), each with 1 and 4 jobs, drivebench's engine (bench/cmd/nativebench)
# and fio alternating, ROUNDS times; the table gives medians of IOPS, latency
# and CPU seconds (user + system, whole process, GNU time) per million I/Os.
# On a host of few CPUs both tools are CPU-bound here: IOPS and CPU per I/O
# are then two views of the same cost.
#
# Needs root (losetup, mount). Environment: DIR (work folder, default
# /tmp/drivebench-bench), SIZE_MB (device size, default 1024), RUNTIME
# (seconds per run, default 5), ROUNDS (default 3), ONLY (a regular
# expression selecting rows), VIA ("engine" by default; "engine run" adds
# `drivebench run`).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${DIR:-/tmp/drivebench-bench}
SIZE_MB=${SIZE_MB:-1024}
RUNTIME=${RUNTIME:-5}
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-.}
VIA=${VIA:-engine}
WARM=
RES=$DIR/engine-cost.tsv
if [ "$(id -u)" != 0 ]; then
  echo "engine-cost.sh needs root: it sets up a loop device over a tmpfs file" >&2
  exit 1
fi
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
bench_setup

MNT=$DIR/tmpfs
LOOP=
cleanup() {
  [ -z "$LOOP" ] || losetup -d "$LOOP" || true
  ! mountpoint -q "$MNT" || umount "$MNT" || true
  rmdir "$MNT" 2>/dev/null || true
}
trap cleanup EXIT
mkdir -p "$MNT"
mount -t tmpfs -o size=$((SIZE_MB + 16))M drivebench-bench "$MNT"
dd if=/dev/urandom of="$MNT/dev.img" bs=1M count="$SIZE_MB" status=none
# direct I/O from the loop driver into tmpfs: no second page cache between
LOOP=$(losetup --find --show --direct-io=on "$MNT/dev.img" 2>/dev/null || losetup --find --show "$MNT/dev.img")
: >"$RES"

R4="-file $LOOP -rw randread -bs 4096 -direct"
WORKLOADS=()
for jobs in 1 4; do
  WORKLOADS+=("loop psync QD1 x $jobs|$R4 -ioengine psync -iodepth 1 -numjobs $jobs")
  for qd in 1 32 128; do
    WORKLOADS+=("loop io_uring QD$qd x $jobs|$R4 -ioengine io_uring -iodepth $qd -numjobs $jobs")
  done
done

fio --version
echo "runtime ${RUNTIME}s, $ROUNDS rounds, $LOOP over a ${SIZE_MB} MiB file in tmpfs ($(cat /sys/block/"${LOOP#/dev/}"/loop/dio 2>/dev/null | sed 's/1/direct I\/O/;s/0/buffered/')), $(nproc) CPUs, kernel $(uname -r)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  workloads "$round" "${WORKLOADS[@]}"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
bench_table
