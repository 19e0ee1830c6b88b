#!/bin/bash
# SPDX-License-Identifier: MIT
# fioscope's engine against Debian's fio 3.33 on the same jobs, alternating
# fioscope, fio, fioscope, fio, ... (ROUNDS each), both writing fio's JSON. For each
# case the table gives the medians, the ratio fioscope / fio and the two-sided
# Mann-Whitney p of that ratio as `fioscope compare` computes it from the repeats:
# IOPS, mean total latency (lat), p99 completion latency (clat.p99), CPU (usr+sys %).
# Usage: bench/engine_vs_fio.sh [path/to/fioscope]
#   env: RUNTIME=4 ROUNDS=5 DISKDIR=/var/tmp CASES="null psync-disk ..." KEEP=dir
# Build fioscope with -DCMAKE_BUILD_TYPE=Release first. Not part of ctest.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
FIOSCOPE=${1:-${FIOSCOPE:-$here/../build-rel/fioscope}}
FIO=${FIO:-/usr/bin/fio}
RUNTIME=${RUNTIME:-4}
ROUNDS=${ROUNDS:-5}
DISKDIR=${DISKDIR:-/var/tmp}
work=${KEEP:-$(mktemp -d "$DISKDIR/fsc_bench.XXXXXX")}
mkdir -p "$work"
shm=$(mktemp -d /dev/shm/fsc_bench.XXXXXX)
[ -n "${KEEP:-}" ] && trap 'rm -rf "$shm" "$work/data"' EXIT || trap 'rm -rf "$work" "$shm"' EXIT
[ -x "$FIOSCOPE" ] || { echo "no fioscope binary at $FIOSCOPE" >&2; exit 2; }
[ -x "$FIO" ] || { echo "no fio at $FIO" >&2; exit 2; }

# Data files made once and only read or overwritten, so both tools see the same bytes.
# The buffered disk case uses a 64 MiB file: fio drops it from the page cache on every
# pass (invalidate=1), which is what decides its numbers.
head -c $((256 << 20)) /dev/urandom >"$work/data"
head -c $((64 << 20)) /dev/urandom >"$work/small"
head -c $((256 << 20)) /dev/urandom >"$shm/data"
sync

# --allow_mounted_write is accepted by both; fioscope needs --allow-overwrite to write
# into a file it did not create (fio does not know that option, so it is added below).
base="--bs=4k --runtime=$RUNTIME --time_based"
declare -A CASES=(
    [null]="--rw=randread --ioengine=null --size=256m"
    [psync-tmpfs]="--rw=randread --ioengine=psync --size=256m --filename=$shm/data"
    [psync-disk-buffered]="--rw=randread --ioengine=psync --size=64m --filename=$work/small"
    [randread-qd1]="--rw=randread --ioengine=libaio --iodepth=1 --direct=1 --size=256m --filename=$work/data"
    [randread-qd32]="--rw=randread --ioengine=libaio --iodepth=32 --direct=1 --size=256m --filename=$work/data"
    [randwrite-qd1]="--rw=randwrite --ioengine=libaio --iodepth=1 --direct=1 --size=256m --filename=$work/data"
    [randwrite-qd32]="--rw=randwrite --ioengine=libaio --iodepth=32 --direct=1 --size=256m --filename=$work/data"
    [mixed70-qd1]="--rw=randrw --rwmixread=70 --ioengine=libaio --iodepth=1 --direct=1 --size=256m --filename=$work/data"
    [mixed70-qd32]="--rw=randrw --rwmixread=70 --ioengine=libaio --iodepth=32 --direct=1 --size=256m --filename=$work/data"
    [io_uring-qd32]="--rw=randread --ioengine=io_uring --iodepth=32 --direct=1 --size=256m --filename=$work/data"
)
ORDER=${CASES_ORDER:-"null psync-tmpfs psync-disk-buffered randread-qd1 randread-qd32 randwrite-qd1 randwrite-qd32 mixed70-qd1 mixed70-qd32 io_uring-qd32"}

for c in $ORDER; do
    mkdir -p "$work/$c/fioscope" "$work/$c/fio"
    args="--name=bench $base ${CASES[$c]}"
    for r in $(seq "$ROUNDS"); do
        # shellcheck disable=SC2086
        "$FIOSCOPE" run --allow-overwrite --output-format=json $args >"$work/$c/fioscope/r$r.json" 2>"$work/$c/err" ||
            { echo "$c: fioscope failed: $(head -1 "$work/$c/err")" >&2; rm -rf "${work:?}/$c"; continue 2; }
        # shellcheck disable=SC2086
        "$FIO" --output-format=json $args >"$work/$c/fio/r$r.json" 2>"$work/$c/err" ||
            { echo "$c: fio failed: $(head -1 "$work/$c/err")" >&2; rm -rf "${work:?}/$c"; continue 2; }
    done
    "$FIOSCOPE" compare -q -f json --match jobname -m iops,lat,clat.p99,cpu --no-split \
        "$work/$c/fio/"*.json -- "$work/$c/fioscope/"*.json >"$work/$c/compare.json"
done

python3 - "$work" $ORDER <<'PY'
import json, os, sys
work, cases = sys.argv[1], sys.argv[2:]
print("| case | fioscope IOPS | fio IOPS | IOPS ratio (p) | mean lat ratio (p) | p99 clat ratio (p) | CPU % fioscope / fio (p) |")
print("|---|---|---|---|---|---|---|")
for c in cases:
    path = os.path.join(work, c, "compare.json")
    if not os.path.exists(path):
        print("| %s | skipped | | | | | |" % c)
        continue
    doc = json.load(open(path))
    cells = {}
    for m in doc.get("metrics", []):
        rows = m.get("rows") or []
        if not rows:
            continue
        row = rows[0]
        b, n = row.get("base", {}).get("median"), row.get("new", {}).get("median")
        p = row.get("p")
        cells[m["name"]] = (n, b, p)
    def ratio(name):
        if name not in cells or not cells[name][1]:
            return "n/a"
        n, b, p = cells[name]
        return "%.3f (p=%s)" % (n / b, "%.3f" % p if isinstance(p, (int, float)) else "n/a")
    iops = cells.get("iops", (0, 0, None))
    cpu = cells.get("cpu", (0, 0, None))
    print("| %s | %.0f | %.0f | %s | %s | %s | %.1f / %.1f (p=%s) |" % (
        c, iops[0] or 0, iops[1] or 0, ratio("iops"), ratio("lat"), ratio("clat.p99"),
        cpu[0] or 0, cpu[1] or 0, "%.3f" % cpu[2] if isinstance(cpu[2], (int, float)) else "n/a"))
PY
