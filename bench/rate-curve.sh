#!/bin/bash
# rate-curve.sh - whether a rate curve's uncontrolled maximum is the peak
# its rates are set from.
#
# Runs one rate_curve plan through `drivebench run` ROUNDS times: each
# round measures the maximum, then steps at PCTS percent of it. Printed per
# round: the maximum and each step's IOPS as a share of that round's
# maximum, with the step's warnings. Then the maximum's run-to-run noise
# (the range of the rounds' maxima, in percent of their median) and, per
# percentage, the highest share a step reached. A step beats its maximum
# when its share is above 100 % by more than that noise: then the maximum
# was not the peak.
#
# Two targets (TARGET): "cache", buffered 4K random reads at iodepth 32
# from a file the page cache holds (CPU-bound: the engine, not a device,
# sets the peak) and "disk", the same with O_DIRECT (device-bound).
#
# Environment: DIR (work folder, default /tmp/drivebench-bench, on a file
# system that accepts O_DIRECT), RUNTIME (seconds per step, default 5),
# ROUNDS (default 5), PCTS (default "80 100 120"), TARGET (default
# "cache disk").
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${DIR:-/tmp/drivebench-bench}
RUNTIME=${RUNTIME:-5}
ROUNDS=${ROUNDS:-5}
PCTS=${PCTS:-80 100 120}
TARGET=${TARGET:-cache disk}
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
bench_setup
READF=$DIR/read-2g.dat
bench_file "$READF"
RES=$DIR/curve.tsv
: >"$RES"

echo "runtime ${RUNTIME}s a step, $ROUNDS rounds, steps at $PCTS % of the maximum, $(nproc) CPUs, kernel $(uname -r)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for target in $TARGET; do
  flags=(-file "$READF" -rw randread -bs 4096 -ioengine io_uring -numjobs 1 -iodepth 32)
  [ "$target" = disk ] && flags+=(-direct)
  for round in $(seq 1 "$ROUNDS"); do
    [ "$target" = disk ] || cat "$READF" >/dev/null
    plan_of "${flags[@]}" -seed $((RANDOM * 32768 + RANDOM + 1)) -rate-curve "$PCTS" >"$DIR/curve.hcl"
    rm -rf "$DIR/curve"
    "$DB" run -out "$DIR/curve" "$DIR/curve.hcl" >"$DIR/curve.log" 2>&1 || { cat "$DIR/curve.log" >&2; exit 1; }
    # one line per step: target, round, percent (0 for the maximum), IOPS, warnings
    jq -r --arg t "$target" --arg r "$round" '
      [$t, $r, (.workload.rate_pct // 0), ((.result.read.iops // 0) + (.result.write.iops // 0)),
       ([.warnings[]?.kind] | unique | join(",") | if . == "" then "-" else . end)] | @tsv' "$DIR"/curve/steps/*.json >>"$RES"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

awk -F'\t' '
  { key = $1 SUBSEP $2; if ($3 == 0) maxof[key] = $4; else { step[key, $3] = $4; warn[key, $3] = $5 }
    if (!($1 in seen)) { seen[$1] = 1; targets[++nt] = $1 }
    if (!(($1, $2) in rs)) { rs[$1, $2] = 1; rounds[$1, ++nr[$1]] = $2 }
    if ($3 > 0 && !(($1, $3) in ps)) { ps[$1, $3] = 1; pcts[$1, ++np[$1]] = $3 } }
  function sort(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
  END {
    for (t = 1; t <= nt; t++) { tg = targets[t]
      delete q; for (p = 1; p <= np[tg]; p++) q[p] = pcts[tg, p] + 0
      sort(q, np[tg]); for (p = 1; p <= np[tg]; p++) pcts[tg, p] = q[p]
      printf "\n%s:\n%-6s %10s", tg, "round", "max IOPS"
      for (p = 1; p <= np[tg]; p++) printf " %9s", pcts[tg, p] "%/max"
      printf "  warnings\n"
      n = 0; delete m
      for (r = 1; r <= nr[tg]; r++) { k = tg SUBSEP rounds[tg, r]; m[++n] = maxof[k]
        printf "%-6s %10d", rounds[tg, r], maxof[k]; w = ""
        for (p = 1; p <= np[tg]; p++) { pc = pcts[tg, p]; sh = 100 * step[k, pc] / maxof[k]
          printf " %8.1f%%", sh; if (sh > best[tg, pc] || r == 1) best[tg, pc] = sh
          if (warn[k, pc] != "-") w = w " " pc "%:" warn[k, pc] }
        printf " %s\n", w }
      sort(m, n); med = (n % 2) ? m[(n + 1) / 2] : (m[n / 2] + m[n / 2 + 1]) / 2
      noise = 100 * (m[n] - m[1]) / med
      printf "maximum: median %d IOPS, run-to-run range %.1f%% of it\n", med, noise
      for (p = 1; p <= np[tg]; p++) { pc = pcts[tg, p]
        printf "  %s%%: highest step/max %.1f%%: %s\n", pc, best[tg, pc],
          (best[tg, pc] > 100 + noise) ? "beats the maximum by more than its noise" : "within the maximum and its noise" } }
    print "\nstep/max: a step\047s IOPS over the uncontrolled maximum of the same round."
  }' "$RES"
