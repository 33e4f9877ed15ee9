#!/bin/bash
# trace-replay.sh - the same trace replayed by fio (read_iolog) and by
# drivebench's replay profile, alternating, on the same scratch file.
#
# It captures a trace with fio's write_iolog (iolog version 3, timestamps in
# microseconds): a 4 KiB random 70/30 read/write job paced by rate_iops=RATE
# (fio applies it to reads and to writes each) for IOS I/Os, O_DIRECT. Then, ROUNDS times, fio replays it with
# read_iolog (replay_no_stall=0: fio waits for each I/O's time; libaio,
# iodepth 16) and drivebench replays it (speed 1, iodepth 16, direct: both
# keep up to 16 I/Os in flight), the order of the two
# alternating, and the script prints each run's I/Os, IOPS over its runtime,
# and its lag: for both, the runtime beyond the trace's span (the lag of
# the last I/O's completion, drift included); for drivebench also the
# issue lag it records per I/O (p50, p99, max), which fio does not record.
#
# Environment: DIR (work folder, default /tmp/drivebench-trace-bench; it must
# accept O_DIRECT), IOS (default 4000), RATE (default 2000), ROUNDS (default 3).
# Run it under flock /work/bench.lock on a shared machine.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
DIR=${DIR:-/tmp/drivebench-trace-bench}
IOS=${IOS:-4000}
RATE=${RATE:-2000}
ROUNDS=${ROUNDS:-3}
mkdir -p "$DIR"
cd "$DIR"
(cd "$here" && go build -o "$DIR/drivebench" ./cmd/drivebench)
target=$DIR/target.img
rm -f "$target" trace.iolog
fio --name=capture --filename="$target" --size=256M --rw=randrw --rwmixread=70 --bs=4k --direct=1 \
	--ioengine=psync --rate_iops="$RATE" --number_ios="$IOS" --write_iolog=trace.iolog --output=/dev/null
span_us=$(awk 'NR>1 && ($3=="read"||$3=="write") {last=$1} END {print last}' trace.iolog)
ios=$(awk 'NR>1 && ($3=="read"||$3=="write")' trace.iolog | wc -l)
echo "trace: $ios I/Os over $(awk -v u="$span_us" 'BEGIN{printf "%.3f", u/1e6}') s, $(awk -v n="$ios" -v u="$span_us" 'BEGIN{printf "%.0f", n*1e6/u}') IOPS (fio's rate_iops=$RATE paces reads and writes each; 4 KiB randrw 70/30)"

cat >plan.hcl <<HCL
drive "target" {
  path     = "$target"
  writable = true
}

profile "replay" {
  iodepth = 16
  direct  = true
  replay {
    file = "trace.iolog"
  }
}
HCL

run_fio() {
	fio --name=replay --read_iolog=trace.iolog --replay_no_stall=0 --ioengine=libaio --iodepth=16 --direct=1 \
		--output-format=json --output=fio.json >/dev/null
	python3 - "$span_us" <<'PY'
import json, sys
span = float(sys.argv[1]) / 1e6
j = json.load(open("fio.json"))["jobs"][0]
ios = j["read"]["total_ios"] + j["write"]["total_ios"]
rt = j["job_runtime"] / 1000
print(f"fio         I/Os {ios:6d}  IOPS {ios/rt:8.1f}  runtime {rt:.3f} s  lag at the end {1000*(rt-span):8.3f} ms")
PY
}

run_drivebench() {
	rm -rf out
	./drivebench run -out out plan.hcl >/dev/null 2>&1 || true
	python3 - "$span_us" <<'PY'
import json, sys
span = float(sys.argv[1]) / 1e6
import glob
rows = json.load(open("out/report.json"))["results"][0]["rows"]
r = rows[0]
rp = r["replay"]
iops = r["total"]["iops"]
rec = json.load(open(f"out/steps/{r['step_id']}.json"))
rt = rec["result"]["runtime_ns"] / 1e9
print(f"drivebench  I/Os {rp['issued_ios']:6d}  IOPS {iops:8.1f}  runtime {rt:.3f} s  lag at the end {1000*(rt-span):8.3f} ms  "
      f"lag p50 {rp['lag_p50_ns']/1e3:.1f} µs  p99 {rp['lag_p99_ns']/1e3:.1f} µs  max {rp['lag_max_ns']/1e3:.1f} µs  slot waits {rp['slot_waits']}  faithful {rp['faithful']}")
PY
}

for round in $(seq 1 "$ROUNDS"); do
	echo "round $round"
	if ((round % 2)); then run_fio; run_drivebench; else run_drivebench; run_fio; fi
done
