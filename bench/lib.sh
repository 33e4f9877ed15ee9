# lib.sh - what the bench scripts share: translating one job, given as
# nativebench flags, into fio options and into a drivebench plan; running
# each tool on it with its CPU time; and the table of medians and ratios.
#
# Sourced, with these set: DIR (work folder), RUNTIME (seconds per run), RES
# (the results file, one line per run), VIA (the drivebench paths: "engine",
# "run" or both) and WARM (a file read before each buffered run, so that it
# runs from the page cache; may be empty). It sets NB and DB, the
# nativebench and drivebench binaries that bench_setup builds.
NB=$DIR/nativebench
DB=$DIR/drivebench

# bench_setup installs fio, jq and GNU time where missing and builds the
# binaries into DIR.
bench_setup() {
  export DEBIAN_FRONTEND=noninteractive
  command -v fio >/dev/null || apt-get install -y --no-install-recommends fio >/dev/null
  command -v jq >/dev/null || apt-get install -y --no-install-recommends jq >/dev/null
  [ -x /usr/bin/time ] || apt-get install -y --no-install-recommends time >/dev/null
  mkdir -p "$DIR"
  (cd "$(dirname "${BASH_SOURCE[0]}")/.." && go build -o "$NB" ./bench/cmd/nativebench && go build -o "$DB" ./cmd/drivebench)
}

# bench_file makes each path a 2 GiB file of random data unless it is one:
# real data, not a sparse file, so that O_DIRECT reads reach the disk.
bench_file() {
  local f
  for f in "$@"; do
    [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" = 2147483648 ] ||
      dd if=/dev/urandom of="$f" bs=1M count=2048 oflag=direct status=none
  done
}

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
      -seed) shift ;; # fio draws its own offsets (--randrepeat=0)
    esac
    shift
  done
  printf '%s\n' "${out[@]}"
}

# plan_of writes a plan of one profile, the job the nativebench flags
# describe, on a drive that is the job's file; with -rate-curve "P1 P2 ..."
# (not a nativebench flag) the profile is a rate curve at those percents.
plan_of() {
  local file rw pct="" bs ioengine numjobs iodepth direct=false rate="" seed="" curve=""
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
      -seed) seed="  seed     = $2"; shift ;;
      -rate-curve) curve="  rate_curve {
    percents = [$(echo "$2" | sed 's/ /, /g')]
  }"; shift ;;
    esac
    shift
  done
  cat <<EOF
testbed "bench" {
  description = "bench/fio-compare.sh"
}
drive "file" {
  path     = "$file"
  writable = $(case $rw in *write* | rw | randrw) echo true ;; *) echo false ;; esac)
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
$seed
$curve
}
EOF
}

# run_tool TOOL NAME ROUND TARGET nativebench-flags... appends one result
# line: name, tool, round, target, ios, iops, p50 ns, p99 ns, p99.9 ns,
# cpu seconds and, when PROBE names bench/cmd/stallprobe, the stall in
# milliseconds a second it measured beside the run (from its second second
# to its last but one). TOOL is fio, fio-thread (fio with --thread: its
# jobs as threads of one process, as drivebench runs them), engine or run.
# Every run draws new random offsets (fio: --randrepeat=0,
# drivebench: a new seed). A virtual disk's host caches what was read
# before: the same offsets again, run after run, would be read from the
# host's memory, and the tool that repeats its offsets would win.
run_tool() {
  local tool=$1 name=$2 round=$3 target=$4; shift 4
  set -- "$@" -seed $((RANDOM * 32768 + RANDOM + 1))
  local out=$DIR/out.json tm=$DIR/time.txt line probe=""
  case "$*" in *-direct*) ;; *) [ -z "$WARM" ] || cat "$WARM" >/dev/null ;; esac
  if [ -n "${PROBE:-}" ]; then
    (sleep 1 && "$PROBE" -for "$((RUNTIME - 2))s" >"$DIR/probe.json") &
    probe=$!
  fi
  case $tool in
    fio | fio-thread)
      mapfile -t args < <(fio_args "$@")
      [ "$tool" = fio ] || args+=(--thread)
      /usr/bin/time -o "$tm" -f '%U %S' fio "${args[@]}" >"$out"
      line=$(jq -r --arg n "$name" --arg tool "$tool" --arg r "$round" --arg t "$target" --arg cpu "$(awk '{print $1+$2}' "$tm")" '
        .jobs[0] as $j | ($j.read.total_ios + $j.write.total_ios) as $ios |
        (if $j.read.total_ios >= $j.write.total_ios then $j.read else $j.write end) as $d |
        [$n, $tool, $r, $t, $ios, ($j.read.iops + $j.write.iops), $d.lat_ns.percentile["50.000000"],
         $d.lat_ns.percentile["99.000000"], $d.lat_ns.percentile["99.900000"], $cpu] | @tsv' "$out") ;;
    engine)
      /usr/bin/time -o "$tm" -f '%U %S' "$NB" -runtime "${RUNTIME}s" "$@" >"$out"
      line=$(jq -r --arg n "$name" --arg r "$round" --arg t "$target" --arg cpu "$(awk '{print $1+$2}' "$tm")" '
        [$n, "engine", $r, $t, .ios, .iops, .p50_ns, .p99_ns, .p999_ns, $cpu] | @tsv' "$out") ;;
    run)
      plan_of "$@" >"$DIR/plan.hcl"
      rm -rf "$DIR/run"
      "$DB" run -out "$DIR/run" "$DIR/plan.hcl" >"$DIR/run.log" 2>&1 || { cat "$DIR/run.log" >&2; return 1; }
      # the direction with more I/Os gives the percentiles, as for fio
      line=$(jq -r --arg n "$name" --arg r "$round" --arg t "$target" '
        .result as $res | [$res.read, $res.write | select(. != null)] as $d |
        ($d | map(.ios) | add) as $ios | ($d | max_by(.ios)) as $m |
        def pct(p): $m.lat_ns.percentiles | map(select(.p == p)) | .[0].ns;
        [$n, "run", $r, $t, $ios, ($d | map(.iops) | add), pct(50), pct(99), pct(99.9),
         ($res.cpu.user_sec + $res.cpu.sys_sec)] | @tsv' "$DIR"/run/steps/*.json) ;;
  esac
  if [ -n "$probe" ]; then
    wait "$probe"
    line+=$'\t'$(jq .stall_ms_per_s "$DIR/probe.json")
  fi
  printf '%s\n' "$line" >>"$RES"
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

# AWK_MEDIAN is an awk function for the tables: median(a, key, t) of the
# values a[key, t, 1..runs[key, t]], key a job and t a tool.
AWK_MEDIAN='function median(a, key, t,   i, j, v, c, tmp) {
  c = runs[key, t]; for (i = 1; i <= c; i++) v[i] = a[key, t, i]
  for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] < v[i]) { tmp = v[i]; v[i] = v[j]; v[j] = tmp }
  return (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2 }'

# workloads ROUND "NAME|FLAGS"... runs with tools, in that round, each
# workload whose name ONLY selects; FLAGS are nativebench flags.
workloads() {
  local round=$1 w name flags
  shift
  for w in "$@"; do
    name=${w%%|*}
    [[ $name =~ $ONLY ]] || continue
    read -ra flags <<<"${w#*|}"
    tools "$name" "$round" 0 "${flags[@]}"
  done
}

# bench_table prints one table per drivebench path in VIA: per workload,
# medians over the rounds.
bench_table() {
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
      '"$AWK_MEDIAN"'
      function ratio(a, b) { return (b > 0) ? a / b : 0 }
      # spread is the lowest and highest IOPS ratio of one round (the
      # runs of a round are next to each other): how far the disk moved
      function spread(key,   i, r, lo, hi, c) {
        c = (runs[key, "f"] < runs[key, "d"]) ? runs[key, "f"] : runs[key, "d"]
        for (i = 1; i <= c; i++) { r = ratio(iops[key, "d", i], iops[key, "f", i])
          if (i == 1 || r < lo) lo = r; if (i == 1 || r > hi) hi = r }
        return sprintf("%.2f-%.2f", lo, hi) }
      END {
        printf "%-40s %9s %9s %5s %9s %7s %7s %5s %7s %7s %5s %7s %7s %5s %6s %6s %7s %7s\n", "workload",
          "fio IOPS", "db IOPS", "x", "x rounds", "fio p50", "db p50", "x", "fio p99", "db p99", "x", "fio p99.9", "db p99.9", "x",
          "fio s/M", "db s/M", "fio/tgt", "db/tgt"
        for (i = 1; i <= n; i++) { k = order[i]
          if (!runs[k, "f"] || !runs[k, "d"]) continue
          fi = median(iops, k, "f"); di = median(iops, k, "d")
          f50 = median(p50, k, "f"); d50 = median(p50, k, "d"); f99 = median(p99, k, "f"); d99 = median(p99, k, "d")
          f999 = median(p999, k, "f"); d999 = median(p999, k, "d")
          ft = dt = "-"
          if ((k, "f", 1) in ach) { ft = sprintf("%.1f%%", median(ach, k, "f")); dt = sprintf("%.1f%%", median(ach, k, "d")) }
          printf "%-40s %9d %9d %5.2f %9s %6.0fu %6.0fu %5.2f %6.0fu %6.0fu %5.2f %7.0fu %7.0fu %5.2f %6.2f %6.2f %7s %7s\n", k,
            fi, di, ratio(di, fi), spread(k), f50 / 1000, d50 / 1000, ratio(d50, f50), f99 / 1000, d99 / 1000, ratio(d99, f99),
            f999 / 1000, d999 / 1000, ratio(d999, f999), median(cpm, k, "f"), median(cpm, k, "d"), ft, dt }
        print "Medians of the rounds. x: drivebench / fio; x rounds: the lowest and highest IOPS ratio of a single round. u: microseconds. s/M: CPU seconds (user + system) per million I/Os. x/tgt: achieved / target IOPS."
      }' "$RES"
  done
}
