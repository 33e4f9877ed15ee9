#!/bin/bash
# fio-compare.sh - drivebench's built-in engine against fio on the same jobs.
#
# Runs each workload below with bench/cmd/nativebench (the native engine,
# driven directly) and with fio, on the same files, alternating the two tools
# and which goes first, ROUNDS times, and prints one table of ratios
# (drivebench / fio): IOPS, p50 and p99 latency, and each tool's CPU seconds
# (user + system, of the whole process, measured alike with GNU time) per
# million I/Os. Rate rows run both tools at a percentage of the maximum the
# two measured uncontrolled in the same round and show how close each came to
# the target.
#
# Environment: DIR (work folder, default /tmp/drivebench-bench; it must be on
# a filesystem that accepts O_DIRECT), RUNTIME (seconds per run, default 8),
# ROUNDS (default 3), ONLY (a regular expression selecting workloads).
# Latency is fio's lat (submission to completion, --lat_percentiles=1) and
# drivebench's, which under a rate target counts from each I/O's intended
# time.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${DIR:-/tmp/drivebench-bench}
RUNTIME=${RUNTIME:-8}
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-.}
export DEBIAN_FRONTEND=noninteractive
command -v fio >/dev/null || apt-get install -y --no-install-recommends fio >/dev/null
command -v jq >/dev/null || apt-get install -y --no-install-recommends jq >/dev/null
[ -x /usr/bin/time ] || apt-get install -y --no-install-recommends time >/dev/null
mkdir -p "$DIR"
(cd "$HERE/.." && go build -o "$DIR/nativebench" ./bench/cmd/nativebench)
NB=$DIR/nativebench
READF=$DIR/read-2g.dat
WRITEF=$DIR/write-2g.dat
for f in "$READF" "$WRITEF"; do
  # real data, not a sparse file, so O_DIRECT reads reach the disk
  [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" = 2147483648 ] ||
    dd if=/dev/urandom of="$f" bs=1M count=2048 oflag=direct status=none
done
RES=$DIR/results.tsv
: >"$RES"

# Workloads: name, then the common job as nativebench flags; fio gets the
# same job translated by fio_args.
WORKLOADS=(
  "buffered 4K randread psync 1 job|-file $READF -rw randread -bs 4096 -ioengine psync -numjobs 1 -iodepth 1"
  "buffered 4K randread psync 2 jobs|-file $READF -rw randread -bs 4096 -ioengine psync -numjobs 2 -iodepth 1"
  "buffered 4K randread io_uring QD32|-file $READF -rw randread -bs 4096 -ioengine io_uring -numjobs 1 -iodepth 32"
  "O_DIRECT 4K randread psync QD1|-file $READF -rw randread -bs 4096 -ioengine psync -numjobs 1 -iodepth 1 -direct"
  "O_DIRECT 4K randread io_uring QD1|-file $READF -rw randread -bs 4096 -ioengine io_uring -numjobs 1 -iodepth 1 -direct"
  "O_DIRECT 4K randread io_uring QD32|-file $READF -rw randread -bs 4096 -ioengine io_uring -numjobs 1 -iodepth 32 -direct"
  "O_DIRECT 128K seq write io_uring QD8|-file $WRITEF -rw write -bs 131072 -ioengine io_uring -numjobs 1 -iodepth 8 -direct"
)
# The rate curve: its uncontrolled maximum, then these percentages of it.
# It runs from the page cache, whose capacity holds still from one run to
# the next; a shared virtual disk's can halve within a minute, and then no
# engine meets a target set from the maximum measured before.
RATE_BASE="buffered 4K randread io_uring QD32"
RATE_PCTS=(10 50 100 120)

# fio_args translates nativebench flags into fio options.
fio_args() {
  local out=(--name=job --time_based --runtime="$RUNTIME" --norandommap --randrepeat=0
    --lat_percentiles=1 --group_reporting --output-format=json --direct=0 --invalidate=0)
  while [ $# -gt 0 ]; do
    case $1 in
      -file) out+=(--filename="$2"); shift ;;
      -rw) out+=(--rw="$2"); shift ;;
      -bs) out+=(--bs="$2"); shift ;;
      -ioengine) out+=(--ioengine="$2"); shift ;;
      -numjobs) out+=(--numjobs="$2"); shift ;;
      -iodepth) out+=(--iodepth="$2"); shift ;;
      -direct) out+=(--direct=1 --invalidate=1) ;;
      -rate-iops) out+=(--rate_iops="$2"); shift ;;
    esac
    shift
  done
  printf '%s\n' "${out[@]}"
}

# run_tool TOOL NAME ROUND TARGET nativebench-flags... appends one result
# line: name, tool, round, target, ios, iops, p50 ns, p99 ns, cpu seconds.
run_tool() {
  local tool=$1 name=$2 round=$3 target=$4; shift 4
  local out=$DIR/out.json tm=$DIR/time.txt
  case "$*" in *-direct*) ;; *) cat "$READF" >/dev/null ;; esac
  if [ "$tool" = fio ]; then
    mapfile -t args < <(fio_args "$@")
    /usr/bin/time -o "$tm" -f '%U %S' fio "${args[@]}" >"$out"
    jq -r --arg n "$name" --arg r "$round" --arg t "$target" --arg cpu "$(awk '{print $1+$2}' "$tm")" '
      .jobs[0] as $j | ($j.read.total_ios + $j.write.total_ios) as $ios |
      (if $j.read.total_ios > 0 then $j.read else $j.write end) as $d |
      [$n, "fio", $r, $t, $ios, ($j.read.iops + $j.write.iops), $d.lat_ns.percentile["50.000000"],
       $d.lat_ns.percentile["99.000000"], $cpu] | @tsv' "$out" >>"$RES"
  else
    /usr/bin/time -o "$tm" -f '%U %S' "$NB" -runtime "${RUNTIME}s" "$@" >"$out"
    jq -r --arg n "$name" --arg r "$round" --arg t "$target" --arg cpu "$(awk '{print $1+$2}' "$tm")" '
      [$n, "drivebench", $r, $t, .ios, .iops, .p50_ns, .p99_ns, $cpu] | @tsv' "$out" >>"$RES"
  fi
}

# pair runs both tools on one job, the one first that goes first this round.
pair() {
  local name=$1 round=$2 target=$3; shift 3
  if [ $((round % 2)) = 1 ]; then
    run_tool fio "$name" "$round" "$target" "$@"; run_tool drivebench "$name" "$round" "$target" "$@"
  else
    run_tool drivebench "$name" "$round" "$target" "$@"; run_tool fio "$name" "$round" "$target" "$@"
  fi
}

flags_of() { local w; for w in "${WORKLOADS[@]}"; do [ "${w%%|*}" = "$1" ] && echo "${w#*|}"; done; }

fio --version
echo "runtime ${RUNTIME}s, $ROUNDS rounds, files in $DIR ($(df -T "$DIR" | awk 'NR==2{print $2}')), $(nproc) CPUs, kernel $(uname -r)"
for round in $(seq 1 "$ROUNDS"); do
  for w in "${WORKLOADS[@]}"; do
    name=${w%%|*}
    [[ $name =~ $ONLY ]] || continue
    read -ra flags <<<"${w#*|}"
    pair "$name" "$round" 0 "${flags[@]}"
  done
  [[ "rate" =~ $ONLY ]] || continue
  read -ra flags <<<"$(flags_of "$RATE_BASE")"
  pair "rate max: $RATE_BASE" "$round" 0 "${flags[@]}"
  max=$(awk -F'\t' -v n="rate max: $RATE_BASE" -v r="$round" '$1==n && $3==r {s+=$6; k++} END {printf "%d", s/k}' "$RES")
  for pct in "${RATE_PCTS[@]}"; do
    target=$((max * pct / 100))
    pair "rate ${pct}% of max" "$round" "$target" "${flags[@]}" -rate-iops "$target"
  done
done

# The table: per workload, IOPS over all rounds (I/Os / time), median
# latencies, CPU per million I/Os; for rate rows, achieved / target.
awk -F'\t' -v runtime="$RUNTIME" '
  { key = $1; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    t = ($2 == "fio") ? "f" : "d"
    ios[key, t] += $5; iops[key, t] += $6; runs[key, t]++; cpu[key, t] += $9
    p50[key, t, runs[key, t]] = $7; p99[key, t, runs[key, t]] = $8
    if ($4 > 0) { tgt[key, t] += $4 } }
  function median(a, key, t, k,   i, j, v, c, tmp) {
    c = runs[key, t]; for (i = 1; i <= c; i++) v[i] = a[key, t, i]
    for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] < v[i]) { tmp = v[i]; v[i] = v[j]; v[j] = tmp }
    return (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2 }
  END {
    printf "%-40s %10s %10s %6s %8s %8s %6s %8s %8s %6s %8s %8s %8s %8s\n", "workload", "fio IOPS", "db IOPS", "IOPS x",
      "fio p50", "db p50", "p50 x", "fio p99", "db p99", "p99 x", "fio s/M", "db s/M", "fio/tgt", "db/tgt"
    for (i = 1; i <= n; i++) { k = order[i]
      fi = iops[k, "f"] / runs[k, "f"]; di = iops[k, "d"] / runs[k, "d"]
      f50 = median(p50, k, "f"); d50 = median(p50, k, "d"); f99 = median(p99, k, "f"); d99 = median(p99, k, "d")
      fc = cpu[k, "f"] / ios[k, "f"] * 1e6; dc = cpu[k, "d"] / ios[k, "d"] * 1e6
      ft = dt = "-"
      if (tgt[k, "f"] > 0) { ft = sprintf("%.1f%%", 100 * iops[k, "f"] / tgt[k, "f"]); dt = sprintf("%.1f%%", 100 * iops[k, "d"] / tgt[k, "d"]) }
      printf "%-40s %10d %10d %6.2f %7.1fu %7.1fu %6.2f %7.1fu %7.1fu %6.2f %8.2f %8.2f %8s %8s\n", k, fi, di, di / fi,
        f50 / 1000, d50 / 1000, d50 / f50, f99 / 1000, d99 / 1000, d99 / f99, fc, dc, ft, dt }
    print "IOPS x, p50 x, p99 x: drivebench / fio. s/M: CPU seconds (user + system) per million I/Os. x/tgt: achieved / target IOPS."
  }' "$RES"
