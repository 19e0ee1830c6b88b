#!/bin/bash
# SPDX-License-Identifier: MIT
# fioscope's engine against Debian's fio 3.33 on the same jobs, alternating
# fioscope, fio, fioscope, fio, ... (ROUNDS each), and a table of ratios
# (fioscope / fio): IOPS, mean total latency (lat), p99 completion latency (clat).
# Usage: bench/engine_vs_fio.sh [path/to/fioscope]   (env: RUNTIME=5 ROUNDS=3 DISKDIR=/var/tmp)
# Build fioscope with -DCMAKE_BUILD_TYPE=Release first. Not part of ctest.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
FIOSCOPE=${1:-${FIOSCOPE:-$here/../build-rel/fioscope}}
FIO=${FIO:-/usr/bin/fio}
RUNTIME=${RUNTIME:-5}
ROUNDS=${ROUNDS:-3}
DISKDIR=${DISKDIR:-/var/tmp}
work=$(mktemp -d "$DISKDIR/fsc_bench.XXXXXX")
shm=$(mktemp -d /dev/shm/fsc_bench.XXXXXX)
trap 'rm -rf "$work" "$shm"' EXIT
[ -x "$FIOSCOPE" ] || { echo "no fioscope binary at $FIOSCOPE" >&2; exit 2; }
[ -x "$FIO" ] || { echo "no fio at $FIO" >&2; exit 2; }

# Data files made once and only read, so both tools see the same bytes.
head -c $((256 << 20)) /dev/urandom >"$work/data"
head -c $((256 << 20)) /dev/urandom >"$shm/data"
sync

common="--rw=randread --bs=4k --size=256m --runtime=$RUNTIME --time_based"
declare -A CASES=(
    [null]="--ioengine=null"
    [psync-tmpfs]="--ioengine=psync --filename=$shm/data"
    [libaio-direct-qd32]="--ioengine=libaio --iodepth=32 --direct=1 --filename=$work/data"
    [io_uring-direct-qd32]="--ioengine=io_uring --iodepth=32 --direct=1 --filename=$work/data"
)
ORDER="null psync-tmpfs libaio-direct-qd32 io_uring-direct-qd32"

# iops, lat mean (ns), clat p99 (ns) from either tool's JSON
extract() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
job = (d["runs"][0] if "runs" in d else d)["jobs"][0]["read"]
print(job["iops"], job["lat_ns"]["mean"], job["clat_ns"]["percentile"]["99.000000"])' "$1"
}

printf "%-22s %12s %12s %8s %9s %9s\n" case "fioscope" "fio" "IOPS x" "mean lat x" "p99 x"
for c in $ORDER; do
    args="--name=bench $common ${CASES[$c]}"
    : >"$work/A" && : >"$work/B"
    ok=1
    for r in $(seq "$ROUNDS"); do
        # shellcheck disable=SC2086
        if ! "$FIOSCOPE" run --output-format=json $args >"$work/a.json" 2>"$work/a.err"; then
            ok=0; break
        fi
        extract "$work/a.json" >>"$work/A"
        # shellcheck disable=SC2086
        "$FIO" --output-format=json $args >"$work/b.json" 2>"$work/b.err" || { ok=0; break; }
        extract "$work/b.json" >>"$work/B"
    done
    if [ $ok = 0 ]; then
        printf "%-22s skipped: %s\n" "$c" "$(cat "$work/a.err" "$work/b.err" | head -1)"
        continue
    fi
    python3 - "$c" "$work/A" "$work/B" <<'PY'
import sys
def mean(path, i):
    rows = [list(map(float, l.split())) for l in open(path) if l.strip()]
    return sum(r[i] for r in rows) / len(rows)
a = [mean(sys.argv[2], i) for i in range(3)]
b = [mean(sys.argv[3], i) for i in range(3)]
print("%-22s %12.0f %12.0f %8.3f %9.3f %9.3f" % (sys.argv[1], a[0], b[0], a[0] / b[0], a[1] / b[1], a[2] / b[2]))
PY
done
