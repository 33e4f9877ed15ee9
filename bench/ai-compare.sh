#!/bin/bash
# ai-compare.sh - the AI storage shapes (a dataloader's reads, a
# checkpoint's write and read-back) run by fio and by drivebench on the
# same file system, alternating, ROUNDS times.
#
# Each shape is a drivebench plan of one step and the fio job that
# expresses it; the two run one after the other, fio first in odd rounds,
# drivebench first in even ones, each on its own files in DIR (the same
# file system). The script prints each run's seconds per pass and MB/s,
# then per shape the medians over the rounds and their ratios
# (drivebench / fio: seconds below 1 and MB/s above 1 favour drivebench).
#
# Dataloader shapes (MLPerf Storage's unet3d, resnet50 and cosmoflow with
# their reader threads, batch sizes and files, scaled down, their records
# rounded up to whole 4 KiB blocks for O_DIRECT): drivebench's dataloader step with
# compute_time = 0, so that the readers run as fast as the drive lets
# them, one epoch; fio's numjobs = the reader threads sharing the set's
# files, named in one filename list (under nrfiles and filename_format
# fio 3.33 gave each job files of its own, or, named alike, let only the
# first job do I/O), filesize the files' size, openfiles = 1
# (a reader keeps one file open, as drivebench's do), a sample one
# transfer (bs = the record) picked at random (randread over a file's
# records, file_service_type = random: another file each I/O) or, for
# unet3d's one-sample files of 140 transfers, rw = read with
# file_service_type = random:140 (a whole file, then another), and
# io_size the set split among the jobs. Seconds per pass: drivebench's
# step runtime over its epochs; fio's longest job. How the shapes differ:
# drivebench visits every sample once per epoch in one shuffled order
# that all readers share, and bounds their read-ahead at 2 batches per
# reader; fio's jobs each draw their own files at random (a file may be
# read twice in a pass and another not at all) and never wait for a
# consumer. With a compute time (COMPUTE=1) each shape also runs with the
# preset's compute time: drivebench overlaps it with the reads (the
# accelerator computes while the readers read ahead), fio's thinktime
# stalls each job after its share of a batch (thinktime_blocks), so fio's
# pass is reads plus compute and drivebench's the longer of the two: the
# ratio then shows the overlap, not a difference in I/O.
#
# Environment: DIR (work folder, default /tmp/drivebench-ai-bench; it must
# accept O_DIRECT), ROUNDS (default 3), ONLY (a regular expression
# selecting shapes), COMPUTE (1 adds the compute-time runs). Run it under
# flock /work/bench.lock on a shared machine.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
DIR=${DIR:-/tmp/drivebench-ai-bench}
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-.}
COMPUTE=${COMPUTE:-0}
export DEBIAN_FRONTEND=noninteractive
command -v fio >/dev/null || apt-get install -y --no-install-recommends fio >/dev/null
command -v jq >/dev/null || apt-get install -y --no-install-recommends jq >/dev/null
mkdir -p "$DIR"
(cd "$here" && go build -o "$DIR/drivebench" ./cmd/drivebench)
RES=$DIR/results.tsv
: >"$RES"

# Dataloader shapes: name|files|samples per file|record bytes|batch|readers|compute|transfer bytes
LOADERS=(
  "unet3d|14|1|146800640|7|4|323ms|1048576"
  "resnet50|2|1251|114688|400|8|224ms|114688"
  "cosmoflow|512|1|2830336|1|4|3500us|2830336"
)

# loader_plan writes the plan of a dataloader shape on the folder $1.
loader_plan() {
  local dir=$1 files=$2 per=$3 record=$4 batch=$5 readers=$6 compute=$7 bs=$8
  cat <<EOF
drive "fs" {
  directory = "$dir"
  writable  = true
}

dataloader "shape" {
  files            = $files
  samples_per_file = $per
  record_size      = $record
  batch_size       = $batch
  reader_threads   = $readers
  compute_time     = "$compute"
  epochs           = 1
  bs               = $bs
  direct           = true
  au_target        = 0.01
}
EOF
}

# loader_fio prints the fio options of a dataloader shape on the folder $1,
# one a line.
loader_fio() {
  local dir=$1 files=$2 per=$3 record=$4 batch=$5 readers=$6 compute=$7 bs=$8
  local size=$((per * record)) per_io=$((record / bs)) names="" i
  local service=random rw=randread
  if [ "$per_io" -gt 1 ]; then service=random:$per_io rw=read; fi
  for i in $(seq 0 $((files - 1))); do names+="f$i:"; done
  printf '%s\n' --name=shape --directory="$dir" --filename="${names%:}" --filesize="$size" --numjobs="$readers" --openfiles=1 \
    --file_service_type="$service" --rw="$rw" --bs="$bs" --io_size=$((files * size / readers)) \
    --direct=1 --invalidate=1 --ioengine=psync --output-format=json
  if [ "$compute" != 0 ]; then
    printf '%s\n' --thinktime="$compute" --thinktime_blocks=$((batch * per_io / readers > 0 ? batch * per_io / readers : 1))
  fi
}

# run_drivebench runs a plan and adds its step's seconds per pass and
# MB/s to RES.
run_drivebench() {
  local shape=$1 round=$2 plan=$3 out=$DIR/db-out
  rm -rf "$out"
  "$DIR/drivebench" run -out "$out" "$plan" >/dev/null 2>&1 || [ $? = 1 ]
  jq -r --arg s "$shape" --arg r "$round" 'select(.result.dataloader != null) |
    [$s, "drivebench", $r, (.result.runtime_ns / 1e9 / .result.dataloader.epochs), (.result.read.bw_bytes / 1e6)] | @tsv' \
    "$out"/steps/*.json >>"$RES"
}

# run_fio runs fio with the options in $3.. and adds its longest job's
# seconds and the jobs' bytes over them to RES.
run_fio() {
  local shape=$1 round=$2
  shift 2
  fio "$@" --output="$DIR/fio.json" >/dev/null
  jq -r --arg s "$shape" --arg r "$round" '[.jobs[] | {t: ((.read.runtime + .write.runtime) / 1000), b: (.read.io_bytes + .write.io_bytes)}] |
    (map(.t) | max) as $t | [$s, "fio", $r, $t, ((map(.b) | add) / $t / 1e6)] | @tsv' "$DIR/fio.json" >>"$RES"
}

# loader_round runs one dataloader shape with both tools, in the round's
# order; the suffix of its name says whether it computes.
loader_round() {
  local round=$1 spec=$2 compute=$3
  IFS='|' read -r name files per record batch readers preset_compute bs <<<"$spec"
  [ "$compute" = 0 ] || { compute=$preset_compute; name="$name + compute"; }
  [[ "$name" =~ $ONLY ]] || return 0
  local set=$DIR/${name// /}
  rm -rf "$set-db" "$set-fio"
  mkdir -p "$set-fio"
  loader_plan "$set-db" "$files" "$per" "$record" "$batch" "$readers" "$compute" "$bs" >"$DIR/plan.hcl"
  mapfile -t opts < <(loader_fio "$set-fio" "$files" "$per" "$record" "$batch" "$readers" "$compute" "$bs")
  # fio lays its files out in a run of its own first, so neither tool's
  # pass counts making the set.
  fio "${opts[@]}" --io_size=1 --output=/dev/null >/dev/null
  if [ $((round % 2)) = 1 ]; then
    run_fio "$name" "$round" "${opts[@]}"
    run_drivebench "$name" "$round" "$DIR/plan.hcl"
  else
    run_drivebench "$name" "$round" "$DIR/plan.hcl"
    run_fio "$name" "$round" "${opts[@]}"
  fi
  rm -rf "$set-db" "$set-fio"
}

fio --version
echo "$ROUNDS rounds, files in $DIR ($(df -T "$DIR" | awk 'NR==2{print $2}')), $(nproc) CPUs, kernel $(uname -r)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  for spec in "${LOADERS[@]}"; do
    loader_round "$round" "$spec" 0
    [ "$COMPUTE" = 0 ] || loader_round "$round" "$spec" 1
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
printf '%-24s %5s %12s %12s\n' shape round "s per pass" "MB/s"
sort -t$'\t' -k1,1 -k3,3n -s "$RES" | awk -F'\t' '{printf "%-24s %5s %12.3f %12.1f  %s\n", $1, $3, $4, $5, $2}'
echo
printf '%-24s %10s %10s %8s %10s %10s %8s\n' shape "fio s" "db s" ratio "fio MB/s" "db MB/s" ratio
python3 - "$RES" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(lambda: collections.defaultdict(list))
order = []
for line in open(sys.argv[1]):
    shape, tool, _, secs, mbps = line.rstrip("\n").split("\t")
    if shape not in order:
        order.append(shape)
    runs[shape][tool].append((float(secs), float(mbps)))
for shape in order:
    f, d = runs[shape]["fio"], runs[shape]["drivebench"]
    if not f or not d:
        continue
    fs, ds = statistics.median(s for s, _ in f), statistics.median(s for s, _ in d)
    fb, db = statistics.median(b for _, b in f), statistics.median(b for _, b in d)
    print(f"{shape:24s} {fs:10.3f} {ds:10.3f} {ds/fs:8.2f} {fb:10.1f} {db:10.1f} {db/fb:8.2f}")
PY
