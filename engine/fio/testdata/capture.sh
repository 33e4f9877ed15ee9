#!/bin/bash
# capture.sh: re-creates the fio output fixtures of this folder from real
# fio runs (fio 3.33 on Debian 12; about 15 s). The lab-*.json fixtures
# come from /work/shared/lab (fio-host.sh and qemu-nvme.sh) and are not
# re-created here.
#
#   psync-randread.json          json+, one job, psync, buffered
#   randrw-2jobs.json            json+, numjobs=2, randrw 70/30, no group_reporting
#   randrw-group.json            json+, the same with group_reporting
#   lat-percentiles.json         json+, io_uring QD4, lat_percentiles=1 (lat_ns bins)
#   note-before-json.json        json+ with fio's "note: ... queue depth will be capped" line first
#   verify-error.json            json, a verify pass that fails with errno 84
#   clients-3hosts.json          json+, client mode, three fio --server on loopback ports
#   clients-host-killed.json     json+, client mode, one of three servers killed mid-run
#   status-interval-sigint.json  json+, --status-interval=1, stopped with SIGINT after 2.5 s
#   truncated.json               status-interval-sigint.json cut inside its last report
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
W=${W:-/tmp/drivebench-fio-capture}
mkdir -p "$W"
F=$W/data.dat
[ -f "$F" ] || fio --name=layout --filename="$F" --size=64m --rw=write --bs=1m --output=/dev/null
cat "$F" >/dev/null
COMMON=(--filename="$F" --size=64m --bs=4k --time_based --runtime=1 --invalidate=0 --randrepeat=0)

fio --name=psync-randread "${COMMON[@]}" --rw=randread --ioengine=psync \
    --output-format=json+ >"$HERE/psync-randread.json"
fio --name=randrw "${COMMON[@]}" --rw=randrw --rwmixread=70 --numjobs=2 \
    --output-format=json+ >"$HERE/randrw-2jobs.json"
fio --name=randrw "${COMMON[@]}" --rw=randrw --rwmixread=70 --numjobs=2 --group_reporting \
    --output-format=json+ >"$HERE/randrw-group.json"
fio --name=latpct "${COMMON[@]}" --rw=randread --ioengine=io_uring --iodepth=4 --lat_percentiles=1 \
    --output-format=json+ >"$HERE/lat-percentiles.json"
fio --name=capped "${COMMON[@]}" --rw=randread --ioengine=psync --iodepth=4 \
    --output-format=json+ 2>/dev/null >"$HERE/note-before-json.json"
truncate -s 1m "$W/zero.dat"
fio --name=verify --filename="$W/zero.dat" --rw=read --bs=4k --size=1m --verify=crc32c --verify_only=1 \
    --output-format=json 2>/dev/null >"$HERE/verify-error.json" || true

# Client mode: three servers, each in its own process group so that
# killing one takes its job processes with it, as a host failure would.
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 -- "-$p" 2>/dev/null || true; done; }
trap cleanup EXIT
for port in 18601 18602 18603; do
  setsid fio --server=ip:127.0.0.1,$port >/dev/null 2>&1 &
  pids+=($!)
done
sleep 1
JOB=$W/client.fio
printf '[client]\nfilename=%s\nsize=64m\nrw=randread\nbs=4k\ntime_based=1\nruntime=%s\ninvalidate=0\n' "$F" 1 >"$JOB"
fio --output-format=json+ --client=ip:127.0.0.1,18601 "$JOB" --client=ip:127.0.0.1,18602 "$JOB" \
    --client=ip:127.0.0.1,18603 "$JOB" >"$HERE/clients-3hosts.json"
printf '[client]\nfilename=%s\nsize=64m\nrw=randread\nbs=4k\ntime_based=1\nruntime=%s\ninvalidate=0\n' "$F" 3 >"$JOB"
fio --output-format=json+ --client=ip:127.0.0.1,18601 "$JOB" --client=ip:127.0.0.1,18602 "$JOB" \
    --client=ip:127.0.0.1,18603 "$JOB" >"$HERE/clients-host-killed.json" 2>/dev/null &
client=$!
sleep 1.5
kill -9 -- "-${pids[1]}"
wait $client || true

fio --name=status "${COMMON[@]}" --runtime=10 --rw=randread --status-interval=1 \
    --output-format=json+ >"$HERE/status-interval-sigint.json" 2>/dev/null &
run=$!
sleep 2.5
kill -INT $run
wait $run || true
size=$(stat -c %s "$HERE/status-interval-sigint.json")
head -c $((size - size / 5)) "$HERE/status-interval-sigint.json" >"$HERE/truncated.json"

# Several runs appended to one file, as `fio ... >> out.json` leaves them:
#
#   appended-2runs.json          two runs of one job name, 4k then 16k, with
#                                fio's note (stderr) before each report
#                                and text after the last
#   appended-status.json         two runs with --status-interval=1, each a
#                                series of status reports
#   appended-cut.json            appended-2runs.json cut inside its second report
A=$HERE/appended-2runs.json
: >"$A"
fio --name=seqrand "${COMMON[@]}" --rw=randread --ioengine=psync --iodepth=4 --output-format=json >>"$A" 2>&1
fio --name=seqrand "${COMMON[@]}" --rw=randread --ioengine=psync --iodepth=4 --bs=16k --output-format=json >>"$A" 2>&1
printf 'fio: this line and the next were typed after the runs\n{ not a report\n' >>"$A"
S=$HERE/appended-status.json
: >"$S"
for bs in 4k 8k; do
  fio --name=status "${COMMON[@]}" --runtime=2 --bs=$bs --rw=randread --status-interval=1 --output-format=json >>"$S"
done
second=$(grep -b '^{' "$A" | sed -n 2p | cut -d: -f1)
head -c $((second + 400)) "$A" >"$HERE/appended-cut.json"
