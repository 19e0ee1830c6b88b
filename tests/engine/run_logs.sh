#!/bin/bash
# SPDX-License-Identifier: MIT
# fio's log files written by the engine: the same file names, columns, units and time
# base as fio 3.33's for the same options (when fio is installed), per-I/O values that
# agree with the run's own JSON, averaged windows, histograms of 1856 buckets,
# per_job_logs=0, and `fioscope parse` of the folder (when the log reader is there).
set -uo pipefail
: "${FIOSCOPE:?}"
dir=$(mktemp -d /var/tmp/fsc_logs.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
FIO=$(command -v fio || true)
[ -n "$FIO" ] && ! "$FIO" --version | grep -q '^fio-3\.33' && FIO=""
head -c $((8 << 20)) /dev/urandom >"$dir/data"

check_case() {
    local name=$1
    shift
    mkdir -p "$dir/$name/e" "$dir/$name/f"
    (cd "$dir/$name/e" && "$FIOSCOPE" run --allow-overwrite --output-format=json "$@" >../e.json 2>../err) ||
        fail "$name: engine: $(cat "$dir/$name/err")"
    if [ -n "$FIO" ]; then
        (cd "$dir/$name/f" && "$FIO" --output-format=json "$@" >../f.json 2>../err) || fail "$name: fio: $(cat "$dir/$name/err")"
    fi
    python3 - "$dir/$name" "${FIO:+fio}" <<'PY' || exit 1
import json, os, sys
d, have_fio = sys.argv[1], sys.argv[2] == "fio"
mine = sorted(os.listdir(os.path.join(d, "e")))
if have_fio:
    theirs = sorted(os.listdir(os.path.join(d, "f")))
    assert mine == theirs, ("file names", mine, theirs)
def rows(path):
    return [[int(x) for x in l.split(",")] for l in open(path) if l.strip()]
for name in mine:
    e = rows(os.path.join(d, "e", name))
    if have_fio:
        f = rows(os.path.join(d, "f", name))
        assert bool(e) == bool(f), (name, "empty in one", len(e), len(f))
        if e and f:
            assert {len(r) for r in e} == {len(r) for r in f}, (name, "columns", e[0], f[0])
            # same time base (ms since the job started) and direction column
            assert {r[1 if "hist" in name else 2] for r in e} == {r[1 if "hist" in name else 2] for r in f}, name
            if "hist" not in name:
                assert {r[3] for r in e} == {r[3] for r in f}, (name, "bs column")
    if "hist" in name:
        assert all(len(r) == 3 + 1856 for r in e), name
print("ok:", os.path.basename(d), len(mine), "files", "(same names and columns as fio 3.33)" if have_fio else "")
PY
}

# per I/O, with offsets, two clones
check_case perio --name=p --rw=randrw --bs=4k --size=1m --filename="$dir/data" --number_ios=40 --numjobs=2 \
    --write_bw_log=p --write_iops_log=p --write_lat_log=p --log_offset=1
python3 - "$dir/perio" <<'PY' || exit 1
import json, os, sys
d = sys.argv[1]
jobs = json.load(open(os.path.join(d, "e.json")))["jobs"]
for n, job in enumerate(jobs, 1):
    lat = [[int(x) for x in l.split(",")] for l in open(os.path.join(d, "e", "p_lat.%d.log" % n))]
    clat = [[int(x) for x in l.split(",")] for l in open(os.path.join(d, "e", "p_clat.%d.log" % n))]
    for ddir, key in ((0, "read"), (1, "write")):
        mine = [r[1] for r in lat if r[2] == ddir]
        assert len(mine) == job[key]["total_ios"], (key, len(mine))
        if mine:
            assert abs(sum(mine) / len(mine) - job[key]["lat_ns"]["mean"]) < 1e-6 * job[key]["lat_ns"]["mean"] + 1
            assert min(mine) == job[key]["lat_ns"]["min"] and max(mine) == job[key]["lat_ns"]["max"]
    assert all(r[3] == 4096 and r[4] % 4096 == 0 and r[4] < (1 << 20) for r in clat)
print("ok: per-I/O latencies equal the run's own min, max and mean")
PY

# averaged windows and histograms over a time-based second
check_case avg --name=a --rw=randread --bs=4k --size=4m --filename="$dir/data" --runtime=1 --time_based \
    --write_bw_log=x --write_iops_log=x --write_lat_log=x --write_hist_log=x --log_avg_msec=200 --log_hist_msec=300
python3 - "$dir/avg" <<'PY' || exit 1
import os, sys
d = os.path.join(sys.argv[1], "e")
for name in ("x_bw.1.log", "x_iops.1.log", "x_lat.1.log", "x_clat.1.log"):
    r = [[int(x) for x in l.split(",")] for l in open(os.path.join(d, name))]
    assert 4 <= len(r) <= 6 and all(x[3] == 0 for x in r), (name, len(r))
    assert [x[0] for x in r][:3] == [200, 400, 600], (name, [x[0] for x in r])
h = [[int(x) for x in l.split(",")] for l in open(os.path.join(d, "x_clat_hist.1.log"))]
assert 2 <= len(h) <= 4 and all(sum(x[3:]) > 0 for x in h), len(h)
print("ok: averaged windows every 200 ms, histograms every 300 ms")
PY

# one shared file per kind with per_job_logs=0
check_case shared --name=s --rw=read --bs=4k --size=64k --filename="$dir/data" --numjobs=2 --write_iops_log=s \
    --per_job_logs=0
[ "$(wc -l <"$dir/shared/e/s_iops.log")" = 32 ] || fail "per_job_logs=0: want both clones' 2 x 16 lines"

# the log reader (fioscope parse of a folder of logs), when this build has it
if "$FIOSCOPE" parse "$dir/perio/e" >"$dir/parsed.json" 2>/dev/null && grep -q '"series"' "$dir/parsed.json"; then
    python3 - "$dir/parsed.json" "$dir/perio/e" <<'PY' || exit 1
import json, os, sys
doc = json.load(open(sys.argv[1]))
series = [s for r in doc["runs"] for s in r.get("series", [])]
assert series, "no series read"
n = 0
for s in series:
    path = os.path.join(sys.argv[2], os.path.basename(s["path"]))
    rows = [[int(x) for x in l.split(",")] for l in open(path)]
    assert s["t_ms"] == [r[0] for r in rows], s["path"]
    if "value" in s:
        assert s["value"] == [r[1] for r in rows], s["path"]
    n += len(rows)
print("ok: fioscope parse reads the engine's logs back equal (%d series, %d samples)" % (len(series), n))
PY
else
    echo "ok (this build reads no log files yet: read-back not checked)"
fi
