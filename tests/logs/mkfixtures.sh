#!/bin/bash
# Regenerate the fio 3.33 log fixtures of tests/logs/fixtures (run by hand; needs the
# installed fio). Every case is one fio invocation, written as normal text and JSON at
# once (out.txt), with its log files next to it. Small sizes, psync on a scratch file,
# rate-limited so that the times spread over a few seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/fixtures
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
rm -rf "$out"
mkdir -p "$out"

common=(--ioengine=psync --filename="$scratch/data" --size=16m --bs=4k --time_based --runtime=2
        --output-format=normal,json --output=out.txt)

run() { # case-name fio-args...
    local name=$1; shift
    mkdir -p "$out/$name"
    (cd "$out/$name" && fio "${common[@]}" "$@" >/dev/null)
    # fio's JSON names the scratch file; keep the fixtures free of temporary paths
    sed -i "s#$scratch/##g" "$out/$name/out.txt"
}

# per-I/O logs (5 columns: time, value, dir, bs, prio), mixed reads and writes
run perio --name=perio --rw=randrw --rwmixread=70 --rate_iops=150,60 --runtime=2 \
    --write_bw_log=perio --write_iops_log=perio --write_lat_log=perio
# log_offset=1: 6 columns
run offset --name=offset --rw=randread --rate_iops=100 --runtime=1 --write_lat_log=offset --log_offset=1
# averaged (log_avg_msec) and max (log_max_value) logs
run avg --name=avg --rw=randrw --rate_iops=300,100 --runtime=3 --log_avg_msec=200 \
    --write_bw_log=avg --write_iops_log=avg --write_lat_log=avg
run max --name=max --rw=randread --rate_iops=300 --runtime=2 --log_avg_msec=200 --log_max_value=1 \
    --write_bw_log=max --write_lat_log=max
# histogram logs: full bins and coarseness 3 (232 bins)
run hist --name=hist --rw=randrw --rate_iops=300,100 --runtime=3 --write_hist_log=hist --log_hist_msec=200
run histcoarse --name=histcoarse --rw=randread --rate_iops=300 --runtime=2 --write_hist_log=histcoarse \
    --log_hist_msec=500 --log_hist_coarseness=3
# absolute times
run epoch --name=epoch --rw=randread --rate_iops=200 --runtime=2 --log_avg_msec=500 --write_bw_log=epoch \
    --log_unix_epoch=1
run altepoch --name=altepoch --rw=randread --rate_iops=200 --runtime=2 --log_avg_msec=500 \
    --write_iops_log=altepoch --log_alternate_epoch=1 --log_alternate_epoch_clock_id=1
# two clones of one job and a second job: .1 .2 and .3, with write_*_log names of their own
run clones --name=clone --rw=randread --rate_iops=200 --runtime=2 --numjobs=2 --log_avg_msec=250 \
    --write_bw_log=clone --write_iops_log=clone --write_hist_log=clone --log_hist_msec=500 \
    --name=other --rw=randwrite --rate_iops=100 --write_bw_log=otherlog
# per_job_logs=0: one file per log type, no clone number
run perjob0 --name=perjob0 --rw=randread --rate_iops=200 --runtime=2 --numjobs=2 --log_avg_msec=500 \
    --write_bw_log=perjob0 --per_job_logs=0
# compressed logs stored compressed (.log.fz, fio --inflate-log turns them into text)
run fz --name=fz --rw=randread --rate_iops=400 --runtime=2 --write_bw_log=fz --write_lat_log=fz \
    --log_compression=4k --log_store_compressed=1
mkdir -p "$out/fz-inflated"
for f in "$out"/fz/*.fz; do [ -s "$f" ] && fio --inflate-log="$f" > "$out/fz-inflated/$(basename "${f%.fz}")"; done
rm -f "$out"/fz/*slat*
# steady state: deviation and slope criteria, attained or not
run ss_dev --name=ss_dev --rw=randread --rate_iops=500 --runtime=8 --ss=iops:20% --ss_dur=3 \
    --write_iops_log=ss_dev --log_avg_msec=1000
run ss_slope --name=ss_slope --rw=randread --rate_iops=500 --runtime=6 --ss=bw_slope:5% --ss_dur=2 \
    --ss_ramp=1
run ss_never --name=ss_never --rw=randread --rate_iops=500 --rate_process=poisson --runtime=3 \
    --ss=iops:0.0001% --ss_dur=2
find "$out" -name data -delete
du -sh "$out"
