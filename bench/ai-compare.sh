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
# Checkpoint shape (MLPerf Storage's llama3-8b: 8 ranks, a file each,
# scaled to 256 MiB a rank): drivebench's checkpoint step, one pass, its
# write flushed and its read-back after the page cache is dropped; fio's
# write job is numjobs = the ranks, each its own file (filename_format
# ckpt.$jobnum, filesize the rank's share), rw = write, bs 4 MiB,
# create_on_open = 1 and fsync_on_close = 1, and its read-back job the
# same files with rw = read and invalidate = 1. Seconds per pass: the
# slowest rank's (drivebench: from the phase's start to the rank's last
# I/O, flush and close; fio: its longest job's runtime); MB/s: every
# rank's bytes over those seconds. Start spread: how far apart the ranks
# began, in ms (drivebench: its ranks' recorded starts, start_s, each
# rank's first operation, the create or open of its file; fio: each
# job's first I/O, from its latency log in Unix ms, the completion
# less the latency, after its create). drivebench's ranks wait at a gate
# until all are ready and count their seconds from its opening; what
# spread is left is the CPUs' run queue: 8 ranks copying 4 MiB writes
# into the page cache on 2 CPUs take turns, the last one first running
# some 20 ms after the gate opens, as fio's jobs do (8 alternating runs
# of 8 ranks of 64 MiB at load 2.7: median 21 ms with the gate, 23 ms
# without; fio's jobs 11 to 28 ms in the same hour's runs). How the
# shapes differ: drivebench drops the whole page cache before the
# read-back (as root; else it evicts the checkpoint's files, as fio's
# invalidate does), and its write phase is one step whose ranks start
# together, where fio's jobs start as fio forks them.
#
# Dataloader shapes (MLPerf Storage's unet3d, resnet50 and cosmoflow with
# their reader threads, batch sizes and files, scaled down, their records
# rounded up to whole 4 KiB blocks for O_DIRECT): drivebench's dataloader step with
# compute_time = 0, so that the readers run as fast as the drive lets
# them, one epoch; fio's numjobs = the reader threads, filesize the
# files' size, openfiles = 1 (a reader keeps one file open, as
# drivebench's do), a sample one transfer (bs = the record) at a random
# offset (randread) or, for unet3d's one-sample files of 140 transfers,
# rw = read with file_service_type = random:140 (a whole file, then
# another). Where the files divide evenly among the readers (resnet50:
# 8 files, 8 readers; cosmoflow: 512 files, 4 readers), each fio job
# reads files of its own (nrfiles = files / readers, filename_format
# f.$jobnum.$filenum), each once, so that fio reads every sample of the
# set once, as drivebench's epoch does. Shared in one filename list
# instead, as unet3d's 14 files over 4 readers still are, each fio job
# draws its files at random on its own and reads each whole before it
# opens the next (under openfiles = 1 fio stays on its open file until
# it is done: 8 opens in a resnet50 pass, where drivebench's readers made
# 8,700), so jobs read the same files: in a logged resnet50 pass fio's 8
# jobs read 5 of the 8 files, one of them 3 jobs at once, and 37 % of its
# reads read a sample another job had read. The "lat µs" columns are the
# reads' mean completion latency: with 8 reads in flight a pass lasts
# about reads x latency / 8 for either tool, so the ratio of seconds is
# that of latencies, the disk's answer, unless one tool adds time of its
# own. In 6 back-to-back resnet50 pairs on ext4 on a shared virtio disk,
# drivebench's pass lasted 1.01 to 1.05 times its reads' mean latency x
# reads / 8 (its batching, shuffled order and 8,700 opens and closes at
# 3 to 8 µs each cost no more), fio's longest job 1.04 to 1.46 times its
# own (its jobs end apart), and either tool's mean read latency swung
# from 467 to 2,085 µs between consecutive runs: on such a disk one
# pair's ratio of seconds fell anywhere from 0.38 to 1.46, and the
# medians of 3 rounds were 1.08, 1.24 and 0.82. With the host quieter
# (load 2.5 to 4.5), 9 rounds gave 0.716 s against fio's 0.740 (0.97;
# mean read latency 568 against 588 µs) with fio's jobs on files of
# their own, and 0.743 against 0.827 (0.90) on the shared list, where
# drivebench was faster in 8 of the 9 rounds. Seconds per pass: drivebench's step runtime over its epochs; fio's
# longest job. How the shapes differ: drivebench visits every sample once
# per epoch in one shuffled order that all readers share, each reader
# opening the file of each sample that is in another file than its last,
# and bounds their read-ahead at 2 batches per reader; fio's jobs never
# wait for a consumer, and split the set's bytes evenly, where a drivebench reader
# reads whole samples: unet3d's 14 samples make 4 for two readers and 3
# for the others, so its pass lasts 4 samples' reads where fio's jobs
# each read 3.5 (14 % longer at the same bandwidth). With a compute time (COMPUTE=1) each shape also runs with the
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
  "resnet50|8|1251|114688|400|8|224ms|114688"
  "cosmoflow|512|1|2830336|1|4|3500us|2830336"
)

# Checkpoint shapes: name|ranks|bytes per rank|transfer bytes
CHECKPOINTS=(
  "llama3-8b|8|268435456|4194304"
)

# checkpoint_plan writes the plan of a checkpoint shape on the folder $1:
# one pass, its write flushed (fsync) and its read-back after the page
# cache is dropped.
checkpoint_plan() {
  local dir=$1 ranks=$2 per=$3 bs=$4
  cat <<EOF
drive "fs" {
  directory = "$dir"
  writable  = true
}

checkpoint "shape" {
  ranks  = $ranks
  size   = $((ranks * per))
  bs     = $bs
  passes = 1
}
EOF
}

# checkpoint_fio prints the fio options of a checkpoint shape's phase
# ($5: write or read) on the folder $1, one a line: a job per rank, each
# its own file.
checkpoint_fio() {
  local dir=$1 ranks=$2 per=$3 bs=$4 phase=$5
  printf '%s\n' --name=ckpt --directory="$dir" --filename_format='ckpt.$jobnum' --numjobs="$ranks" --filesize="$per" \
    --size="$per" --bs="$bs" --ioengine=psync --direct=0 --output-format=json
  printf '%s\n' --write_lat_log="$DIR/ckpt" --log_unix_epoch=1
  if [ "$phase" = write ]; then
    printf '%s\n' --rw=write --create_on_open=1 --fsync_on_close=1
  else
    printf '%s\n' --rw=read --invalidate=1
  fi
}

# run_checkpoint_drivebench runs a checkpoint plan and adds its pass's
# write and read-back (the slowest rank's seconds, every rank's bytes
# over them) to RES.
run_checkpoint_drivebench() {
  local shape=$1 round=$2 plan=$3 out=$DIR/db-out
  rm -rf "$out"
  "$DIR/drivebench" run -out "$out" "$plan" >/dev/null 2>&1 || [ $? = 1 ]
  local spread
  spread=$(jq -s -c 'map(select(.result.files.jobs != null) | {(.name | split(" ") | last): ([.result.files.jobs[].start_s] | (max - min) * 1000)}) | add' "$out"/steps/*.json)
  jq -r --arg s "$shape" --arg r "$round" --argjson sp "$spread" 'select(.checkpoint != null) | .checkpoint.passes[0] as $p |
    ([$s + " write", "drivebench", $r, $p.write.seconds, ($p.write.aggregate_bw_bytes / 1e6), $sp.write, "-"] | @tsv),
    ([$s + " read-back", "drivebench", $r, $p.read.seconds, ($p.read.aggregate_bw_bytes / 1e6), $sp.read, "-"] | @tsv)' "$out"/steps/*.json >>"$RES"
}

# quiesce writes back what is dirty and, as root, empties the page cache.
quiesce() {
  sync
  [ -w /proc/sys/vm/drop_caches ] && echo 3 >/proc/sys/vm/drop_caches
  sleep 1
}

# checkpoint_round runs one checkpoint shape with both tools, in the
# round's order: fio's write, then its read-back, as one pass.
checkpoint_round() {
  local round=$1 spec=$2
  IFS='|' read -r name ranks per bs <<<"$spec"
  [[ "$name" =~ $ONLY ]] || return 0
  local set=$DIR/$name
  rm -rf "$set-db" "$set-fio"
  mkdir -p "$set-fio"
  checkpoint_plan "$set-db" "$ranks" "$per" "$bs" >"$DIR/plan.hcl"
  mapfile -t write < <(checkpoint_fio "$set-fio" "$ranks" "$per" "$bs" write)
  mapfile -t read < <(checkpoint_fio "$set-fio" "$ranks" "$per" "$bs" read)
  # Each tool's write starts with nothing dirty and an empty page cache
  # (quiesce): on a virtual disk, writing back what an earlier run left
  # took a checkpoint's write from 1.1 s to 12.6 s.
  if [ $((round % 2)) = 1 ]; then
    quiesce
    run_fio "$name write" "$round" "${write[@]}"
    run_fio "$name read-back" "$round" "${read[@]}"
    quiesce
    run_checkpoint_drivebench "$name" "$round" "$DIR/plan.hcl"
  else
    quiesce
    run_checkpoint_drivebench "$name" "$round" "$DIR/plan.hcl"
    quiesce
    run_fio "$name write" "$round" "${write[@]}"
    run_fio "$name read-back" "$round" "${read[@]}"
  fi
  rm -rf "$set-db" "$set-fio"
}

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
  if [ $((files % readers)) = 0 ]; then
    printf '%s\n' --nrfiles=$((files / readers)) --filename_format='f.$jobnum.$filenum'
  else
    for i in $(seq 0 $((files - 1))); do names+="f$i:"; done
    printf '%s\n' --filename="${names%:}"
  fi
  printf '%s\n' --name=shape --directory="$dir" --filesize="$size" --numjobs="$readers" --openfiles=1 \
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
    [$s, "drivebench", $r, (.result.runtime_ns / 1e9 / .result.dataloader.epochs), (.result.read.bw_bytes / 1e6), "-",
     (.result.read.lat_ns.mean / 1000)] | @tsv' \
    "$out"/steps/*.json >>"$RES"
}

# run_fio runs fio with the options in $3.. and adds its longest job's
# seconds and the jobs' bytes over them to RES, and, from the latency
# logs of a checkpoint's jobs, how far apart their first I/Os began, or
# for a dataloader's jobs their reads' mean completion latency.
run_fio() {
  local shape=$1 round=$2 spread=-
  shift 2
  rm -f "$DIR"/ckpt_*.log
  fio "$@" --output="$DIR/fio.json" >/dev/null
  if compgen -G "$DIR/ckpt_lat.*.log" >/dev/null; then
    spread=$(for f in "$DIR"/ckpt_lat.*.log; do head -1 "$f" | awk -F', *' '{printf "%.3f\n", $1 - $2 / 1e6}'; done |
      sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {print hi - lo}')
    rm -f "$DIR"/ckpt_*.log
  fi
  jq -r --arg s "$shape" --arg r "$round" --arg sp "$spread" '[.jobs[] | {t: ((.read.runtime + .write.runtime) / 1000), b: (.read.io_bytes + .write.io_bytes),
    n: .read.total_ios, l: (.read.clat_ns.mean * .read.total_ios)}] |
    (map(.t) | max) as $t | (if $sp == "-" then ((map(.l) | add) / (map(.n) | add) / 1000) else "-" end) as $lat |
    [$s, "fio", $r, $t, ((map(.b) | add) / $t / 1e6), $sp, $lat] | @tsv' "$DIR/fio.json" >>"$RES"
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
  for spec in "${CHECKPOINTS[@]}"; do
    checkpoint_round "$round" "$spec"
  done
  for spec in "${LOADERS[@]}"; do
    loader_round "$round" "$spec" 0
    [ "$COMPUTE" = 0 ] || loader_round "$round" "$spec" 1
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
printf '%-24s %5s %12s %12s %10s %10s\n' shape round "s per pass" "MB/s" "spread ms" "lat µs"
sort -t$'\t' -k1,1 -k3,3n -s "$RES" | awk -F'\t' '{printf "%-24s %5s %12.3f %12.1f %10s %10s  %s\n", $1, $3, $4, $5,
  ($6 == "-" ? "-" : sprintf("%.1f", $6)), ($7 == "-" ? "-" : sprintf("%.1f", $7)), $2}'
echo
printf '%-24s %10s %10s %8s %10s %10s %8s %10s %10s %10s %10s\n' shape "fio s" "db s" ratio "fio MB/s" "db MB/s" ratio "fio ms" "db ms" "fio µs" "db µs"
python3 - "$RES" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(lambda: collections.defaultdict(list))
order = []
for line in open(sys.argv[1]):
    shape, tool, _, secs, mbps, spread, lat = line.rstrip("\n").split("\t")
    if shape not in order:
        order.append(shape)
    runs[shape][tool].append((float(secs), float(mbps), None if spread == "-" else float(spread), None if lat == "-" else float(lat)))
for shape in order:
    f, d = runs[shape]["fio"], runs[shape]["drivebench"]
    if not f or not d:
        continue
    fs, ds = statistics.median(r[0] for r in f), statistics.median(r[0] for r in d)
    fb, db = statistics.median(r[1] for r in f), statistics.median(r[1] for r in d)
    optional = [[r[i] for r in runs if r[i] is not None] for i in (2, 3) for runs in (f, d)]
    shown = "".join(f" {statistics.median(s):10.1f}" if s else f" {'-':>10s}" for s in optional)
    print(f"{shape:24s} {fs:10.3f} {ds:10.3f} {ds/fs:8.2f} {fb:10.1f} {db:10.1f} {db/fb:8.2f}{shown}")
PY
