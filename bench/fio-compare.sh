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
export DEBIAN_FRONTEND=noninteractive
command -v fio >/dev/null || apt-get install -y --no-install-recommends fio >/dev/null
command -v jq >/dev/null || apt-get install -y --no-install-recommends jq >/dev/null
[ -x /usr/bin/time ] || apt-get install -y --no-install-recommends time >/dev/null
mkdir -p "$DIR"
(cd "$HERE/.." && go build -o "$DIR/nativebench" ./bench/cmd/nativebench && go build -o "$DIR/drivebench" ./cmd/drivebench)
NB=$DIR/nativebench
DB=$DIR/drivebench
READF=$DIR/read-2g.dat
WRITEF=$DIR/write-2g.dat
for f in "$READF" "$WRITEF"; do
  # real data, not a sparse file, so O_DIRECT reads reach the disk
  [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" = 2147483648 ] ||
    dd if=/dev/urandom of="$f" bs=1M count=2048 oflag=direct status=none
done
RES=$DIR/results.tsv
: >"$RES"

# Workloads: name, then the job as nativebench flags; fio gets the same job
# translated by fio_args, `drivebench run` by plan_of.
R4="-file $READF -rw randread -bs 4096"
WORKLOADS=(
  "buffered 4K randread psync 1 job|$R4 -ioengine psync -numjobs 1 -iodepth 1"
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

# fio_args translates nativebench flags into fio options.
fio_args() {
  local out=(--name=job --time_based --runtime="$RUNTIME" --norandommap --randrepeat=0
    --lat_percentiles=1 --group_reporting --output-format=json --direct=0 --invalidate=0)
  while [ $# -gt 0 ]; do
    case $1 in
      -file) out+=(--filename="$2"); shift ;;
      -rw) out+=(--rw="$2"); shift ;;
      -read-pct) out+=(--rwmixread="$2"); shift ;;
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

# plan_of writes a plan of one profile, the job the nativebench flags
# describe, on a drive that is the job's file.
plan_of() {
  local file rw pct="" bs ioengine numjobs iodepth direct=false rate=""
  while [ $# -gt 0 ]; do
    case $1 in
      -file) file=$2; shift ;;
      -rw) rw=$2; shift ;;
      -read-pct) pct="  read_pct = $2"; shift ;;
      -bs) bs=$2; shift ;;
      -ioengine) ioengine=$2; shift ;;
      -numjobs) numjobs=$2; shift ;;
      -iodepth) iodepth=$2; shift ;;
      -direct) direct=true ;;
      -rate-iops) rate="  rate_iops = $2"; shift ;;
    esac
    shift
  done
  cat <<EOF
testbed "bench" {
  description = "bench/fio-compare.sh"
}
drive "file" {
  path     = "$file"
  writable = $([ "$file" = "$WRITEF" ] && echo true || echo false)
}
profile "job" {
  rw       = "$rw"
  bs       = $bs
  ioengine = "$ioengine"
  numjobs  = $numjobs
  iodepth  = $iodepth
  direct   = $direct
  runtime  = "${RUNTIME}s"
$pct
$rate
}
EOF
}

# run_tool TOOL NAME ROUND TARGET nativebench-flags... appends one result
# line: name, tool, round, target, ios, iops, p50 ns, p99 ns, p99.9 ns,
# cpu seconds.
run_tool() {
  local tool=$1 name=$2 round=$3 target=$4; shift 4
  local out=$DIR/out.json tm=$DIR/time.txt
  case "$*" in *-direct*) ;; *) cat "$READF" >/dev/null ;; esac
  case $tool in
    fio)
      mapfile -t args < <(fio_args "$@")
      /usr/bin/time -o "$tm" -f '%U %S' fio "${args[@]}" >"$out"
      jq -r --arg n "$name" --arg r "$round" --arg t "$target" --arg cpu "$(awk '{print $1+$2}' "$tm")" '
        .jobs[0] as $j | ($j.read.total_ios + $j.write.total_ios) as $ios |
        (if $j.read.total_ios >= $j.write.total_ios then $j.read else $j.write end) as $d |
        [$n, "fio", $r, $t, $ios, ($j.read.iops + $j.write.iops), $d.lat_ns.percentile["50.000000"],
         $d.lat_ns.percentile["99.000000"], $d.lat_ns.percentile["99.900000"], $cpu] | @tsv' "$out" >>"$RES" ;;
    engine)
      /usr/bin/time -o "$tm" -f '%U %S' "$NB" -runtime "${RUNTIME}s" "$@" >"$out"
      jq -r --arg n "$name" --arg r "$round" --arg t "$target" --arg cpu "$(awk '{print $1+$2}' "$tm")" '
        [$n, "engine", $r, $t, .ios, .iops, .p50_ns, .p99_ns, .p999_ns, $cpu] | @tsv' "$out" >>"$RES" ;;
    run)
      plan_of "$@" >"$DIR/plan.hcl"
      rm -rf "$DIR/run"
      "$DB" run -out "$DIR/run" "$DIR/plan.hcl" >"$DIR/run.log" 2>&1 || { cat "$DIR/run.log" >&2; return 1; }
      # the direction with more I/Os gives the percentiles, as for fio
      jq -r --arg n "$name" --arg r "$round" --arg t "$target" '
        .result as $res | [$res.read, $res.write | select(. != null)] as $d |
        ($d | map(.ios) | add) as $ios | ($d | max_by(.ios)) as $m |
        def pct(p): $m.lat_ns.percentiles | map(select(.p == p)) | .[0].ns;
        [$n, "run", $r, $t, $ios, ($d | map(.iops) | add), pct(50), pct(99), pct(99.9),
         ($res.cpu.user_sec + $res.cpu.sys_sec)] | @tsv' "$DIR"/run/steps/*.json >>"$RES" ;;
  esac
}

# tools runs fio and each drivebench path on one job, the order rotated by
# round so no tool always runs first.
tools() {
  local name=$1 round=$2 target=$3; shift 3
  local order=(fio $VIA) i n
  n=${#order[@]}
  for i in $(seq 0 $((n - 1))); do
    run_tool "${order[$(((i + round) % n))]}" "$name" "$round" "$target" "$@"
  done
}

flags_of() { local w; for w in "${WORKLOADS[@]}"; do [ "${w%%|*}" = "$1" ] && echo "${w#*|}"; done; }

fio --version
echo "runtime ${RUNTIME}s, $ROUNDS rounds, files in $DIR ($(df -T "$DIR" | awk 'NR==2{print $2}')), $(nproc) CPUs, kernel $(uname -r)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  for w in "${WORKLOADS[@]}"; do
    name=${w%%|*}
    [[ $name =~ $ONLY ]] || continue
    read -ra flags <<<"${w#*|}"
    tools "$name" "$round" 0 "${flags[@]}"
  done
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

# One table per drivebench path: per workload, medians over the rounds.
for via in $VIA; do
  echo
  echo "drivebench through the $via:"
  awk -F'\t' -v via="$via" '
    $2 != "fio" && $2 != via { next }
    { key = $1; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
      t = ($2 == "fio") ? "f" : "d"; c = ++runs[key, t]
      iops[key, t, c] = $6; p50[key, t, c] = $7; p99[key, t, c] = $8; p999[key, t, c] = $9
      cpm[key, t, c] = ($5 > 0) ? $10 / $5 * 1e6 : 0
      if ($4 > 0) ach[key, t, c] = 100 * $6 / $4 }
    function median(a, key, t,   i, j, v, c, tmp) {
      c = runs[key, t]; for (i = 1; i <= c; i++) v[i] = a[key, t, i]
      for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] < v[i]) { tmp = v[i]; v[i] = v[j]; v[j] = tmp }
      return (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2 }
    function ratio(a, b) { return (b > 0) ? a / b : 0 }
    END {
      printf "%-40s %9s %9s %5s %7s %7s %5s %7s %7s %5s %7s %7s %5s %6s %6s %7s %7s\n", "workload",
        "fio IOPS", "db IOPS", "x", "fio p50", "db p50", "x", "fio p99", "db p99", "x", "fio p99.9", "db p99.9", "x",
        "fio s/M", "db s/M", "fio/tgt", "db/tgt"
      for (i = 1; i <= n; i++) { k = order[i]
        if (!runs[k, "f"] || !runs[k, "d"]) continue
        fi = median(iops, k, "f"); di = median(iops, k, "d")
        f50 = median(p50, k, "f"); d50 = median(p50, k, "d"); f99 = median(p99, k, "f"); d99 = median(p99, k, "d")
        f999 = median(p999, k, "f"); d999 = median(p999, k, "d")
        ft = dt = "-"
        if ((k, "f", 1) in ach) { ft = sprintf("%.1f%%", median(ach, k, "f")); dt = sprintf("%.1f%%", median(ach, k, "d")) }
        printf "%-40s %9d %9d %5.2f %6.0fu %6.0fu %5.2f %6.0fu %6.0fu %5.2f %7.0fu %7.0fu %5.2f %6.2f %6.2f %7s %7s\n", k,
          fi, di, ratio(di, fi), f50 / 1000, d50 / 1000, ratio(d50, f50), f99 / 1000, d99 / 1000, ratio(d99, f99),
          f999 / 1000, d999 / 1000, ratio(d999, f999), median(cpm, k, "f"), median(cpm, k, "d"), ft, dt }
      print "Medians of the rounds. x: drivebench / fio. u: microseconds. s/M: CPU seconds (user + system) per million I/Os. x/tgt: achieved / target IOPS."
    }' "$RES"
done
