#!/bin/bash
# memory.sh - the native engine's memory over a long run, simulated.
#
# Runs a paced mixed workload with 1 ms intervals, so that a run of
# SECONDS (default 40) seconds produces as many samples as SECONDS/1ms
# one-second intervals would (40 s: about 11 h, if the host's timer keeps
# up; the count actually reached is printed). Prints, for a short and a
# long run, the intervals sampled, the Go heap in use after the run (the
# result, with its series, still alive) and the peak resident set. The
# difference is the series: 72 bytes per interval.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${DIR:-/tmp/drivebench-bench}
SECONDS_LONG=${SECONDS_LONG:-40}
mkdir -p "$DIR"
(cd "$HERE/.." && go build -o "$DIR/nativebench" ./bench/cmd/nativebench)
F=$DIR/memory.dat
[ -f "$F" ] || dd if=/dev/urandom of="$F" bs=1M count=64 status=none
printf '%-10s %10s %10s %14s %14s\n' runtime intervals ios heap_inuse max_rss
for rt in 2 "$SECONDS_LONG"; do
  "$DIR/nativebench" -file "$F" -rw randrw -read-pct 50 -bs 4096 -iodepth 4 -numjobs 2 -ioengine psync \
    -rate-iops 20000 -runtime "${rt}s" -interval 1ms |
    jq -r --arg rt "${rt}s" '[$rt, .samples, .ios, .heap_inuse_bytes, .max_rss_bytes] | @tsv' |
    awk -F'\t' '{printf "%-10s %10d %10d %14d %14d\n", $1, $2, $3, $4, $5}'
done
