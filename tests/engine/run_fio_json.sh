#!/bin/bash
# SPDX-License-Identifier: MIT
# The engine writes fio 3.33's own JSON, json+ and terse v3: the same keys in the same
# order as fio 3.33 writes for the same job (when fio is installed), and
# `fioscope parse` reads every format back to the same numbers.
set -uo pipefail
: "${FIOSCOPE:?}"
dir=$(mktemp -d /var/tmp/fsc_json.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
FIO=$(command -v fio || true)
[ -n "$FIO" ] && ! "$FIO" --version | grep -q '^fio-3\.33' && FIO=""

i=0
while read -r fmt args; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    "$FIOSCOPE" run --output-format=$fmt $args >"$dir/e$i" 2>"$dir/err" || fail "engine $args: $(cat "$dir/err")"
    if [ -n "$FIO" ]; then
        # shellcheck disable=SC2086
        "$FIO" --output-format=$fmt $args >"$dir/f$i" 2>"$dir/err" || fail "fio $args: $(cat "$dir/err")"
        python3 - "$dir/e$i" "$dir/f$i" "$fmt" <<'PY' || exit 1
import json, sys
fmt = sys.argv[3]
if fmt == "terse":
    e, f = (open(p).read().splitlines() for p in sys.argv[1:3])
    e, f = [l for l in e if l.startswith("3;")], [l for l in f if l.startswith("3;")]
    assert len(e) == len(f), (len(e), len(f))
    for a, b in zip(e, f):
        # fio appends disk stats (9 fields per device) when it has them
        na, nb = len(a.split(";")), len(b.split(";"))
        assert (na - nb) % 9 == 0, (na, nb)
    raise SystemExit(0)
def shape(o, path=""):
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            if k[0].isdigit() or k.startswith(">="):
                k = "<n>" if "percentile" not in path and "bins" not in path else "<k>"
            out.append(path + "/" + k)
            if not path.endswith(("/bins", "/percentile")):
                out += shape(v, path + "/" + k)
    elif isinstance(o, list):
        for v in o[:1]:
            out += shape(v, path + "[]")
    return out
e, f = (json.load(open(p)) for p in sys.argv[1:3])
for d in (e, f):
    d.pop("disk_util", None)  # the device (or none) differs between the two files
se, sf = shape(e), shape(f)
# keys in order, duplicates collapsed (percentiles, bins)
def uniq(s):
    out = []
    for k in s:
        if not out or out[-1] != k:
            out.append(k)
    return out
se, sf = uniq(se), uniq(sf)
if se != sf:
    import difflib
    raise SystemExit("FAIL: keys differ from fio's:\n" + "\n".join(difflib.unified_diff(sf, se, "fio", "fioscope", lineterm="", n=1)))
assert e["fio version"].startswith("fioscope-engine-")
PY
    fi
    # parse reads the engine's output back to its own numbers
    "$FIOSCOPE" parse "$dir/e$i" >"$dir/p$i" 2>"$dir/err" || fail "parse of $fmt: $(cat "$dir/err")"
    if [ "$fmt" = terse ]; then
        python3 - "$dir/p$i" <<'PY' || exit 1
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert len(runs) == 1 and runs[0]["source"]["format"] == "terse", runs
job = runs[0]["jobs"][0]
assert runs[0]["source"]["fio_version"].startswith("fioscope-engine-") and job["jobname"] == "f"
assert job["read"]["io_bytes"] + job["write"]["io_bytes"] == 2 << 20, job["read"]["io_bytes"]
print("ok: terse read back")
PY
        continue
    fi
    python3 - "$dir/e$i" "$dir/p$i" <<'PY' || exit 1
import json, sys
e = json.load(open(sys.argv[1]))
p = json.load(open(sys.argv[2]))["runs"]
assert len(p) == 1 and p[0]["source"]["fio_version"] == e["fio version"], p[0]["source"]
n = 0
for je, jp in zip(e["jobs"], p[0]["jobs"]):
    for d in ("read", "write", "mixed"):
        if d not in je or not je[d]["total_ios"]:
            continue
        for k in ("io_bytes", "bw_bytes", "iops", "runtime", "total_ios", "bw_mean", "iops_samples"):
            assert jp[d][k] == je[d][k], (d, k, jp[d][k], je[d][k])
            n += 1
        for lat in ("clat_ns", "lat_ns"):
            for k, v in je[d][lat].items():
                if isinstance(v, dict):
                    assert jp[d][lat].get(k) == {kk: vv for kk, vv in v.items()} or k == "bins", (d, lat, k)
                else:
                    assert abs(jp[d][lat][k] - v) <= 1e-6 * abs(v), (d, lat, k, jp[d][lat][k], v)
                n += 1
print("ok: %d numbers read back" % n)
PY
done <<EOF2
json --name=a --rw=randread --bs=4k --size=4m --filename=$dir/data --runtime=300ms
json --name=b --rw=randrw --rwmixread=60 --bs=8k --size=4m --directory=$dir --ioengine=libaio --iodepth=4 --numjobs=2 --group_reporting --description=two_clones --percentile_list=50:99.9 --lat_percentiles=1
json --name=c --rw=randrw --size=2m --directory=$dir --unified_rw_reporting=both --fsync=16
json --name=d --rw=randwrite --size=2m --directory=$dir --unified_rw_reporting=mixed
json+ --name=e --rw=randread --size=2m --filename=$dir/data --slat_percentiles=1 --ioengine=libaio
terse --name=f --rw=randrw --size=2m --directory=$dir --description=terse_job
EOF2
[ -n "$FIO" ] && echo "ok: keys and order equal to fio 3.33's" || echo "ok (fio 3.33 not installed: shape not compared)"
