#!/bin/bash
# SPDX-License-Identifier: MIT
# `fioscope run | fioscope parse -` round trip: every number the normal text shows,
# read back by the parser, equals the engine's JSON of the same run within the
# precision the text prints it with. Needs the normal-text parser (src/parse).
set -euo pipefail
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}"
dir=$(mktemp -d /var/tmp/fsc_rt.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$FIOSCOPE" run --output-format=normal,json --directory="$dir" --size=4m --runtime=1200ms --time_based \
    --name=mix --rw=randrw --rwmixread=70 --numjobs=2 --fsync=64 \
    --name=nul --ioengine=null --stonewall --percentile_list=50:99.5:99.999 >"$dir/both"
python3 - "$dir/both" "$FSC_SOURCE_DIR/tests/engine" >"$dir/normal" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from split_output import split
pre, doc, text = split(open(sys.argv[1]).read())
print(pre + text)
PY
python3 - "$dir/both" "$FSC_SOURCE_DIR/tests/engine" >"$dir/engine.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[2])
from split_output import split
from split_output import contract
print(json.dumps({"runs": [contract(split(open(sys.argv[1]).read())[1])]}))
PY
"$FIOSCOPE" parse - <"$dir/normal" >"$dir/parsed.json"
python3 - "$dir/engine.json" "$dir/parsed.json" <<'PY'
import json, sys
eng = json.load(open(sys.argv[1]))["runs"][0]
par = json.load(open(sys.argv[2]))["runs"]
assert len(par) == 1, "parser found %d runs" % len(par)
par = par[0]
assert par["source"]["fio_version"] == "fioscope-engine-0.1.0", par["source"]
EXACT = {"total_ios", "short_ios", "drop_ios", "runtime", "groupid", "jobs", "error", "ctx", "majf", "minf",
         "bw_samples", "iops_samples", "runtime_min", "runtime_max", "read_ios", "write_ios", "read_merges",
         "write_merges", "read_ticks", "write_ticks", "in_queue", "latency_depth", "latency_target",
         "latency_window", "pid"}
checked = [0]

def close(path, key, want, got):
    if key in EXACT:
        ok = want == got
    else:
        # 4 significant digits (num2str), 2 decimals, or a latency shown in usec/msec
        # (truncated, or rounded up for percentiles)
        tol = 0.006 * abs(want) + 0.051  # also %3.1f percentages (IO depths)
        if "_ns" in path or path.endswith("percentile"):
            tol += 1000 if abs(want) < 2e6 else 1e6
        ok = abs(want - got) <= tol
    assert ok, "%s.%s: engine %r, text %r" % (path, key, want, got)
    checked[0] += 1

def all_zero(v):
    if isinstance(v, dict):
        return all(all_zero(x) for x in v.values())
    return isinstance(v, (int, float)) and v == 0

def walk(path, want, got):
    for k, g in got.items():
        if k not in want and (k in ("pid", "jobs") or path.endswith("job options")):
            continue  # the text's job line has them, fio's JSON does not
        if k not in want:
            # the contract: a direction a job did not do is absent or all zero
            if all_zero(g):
                continue
            raise AssertionError("%s.%s: in the text but not in the engine JSON" % (path, k))
        w = want[k]
        if isinstance(g, dict):
            walk(path + "." + k, w, g)
        elif isinstance(g, (int, float)) and not isinstance(g, bool):
            close(path, k, w, g)

assert len(par["jobs"]) == len(eng["jobs"])
for i, (e, p) in enumerate(zip(eng["jobs"], par["jobs"])):
    assert e["jobname"] == p["jobname"]
    for d in ("read", "write", "sync"):
        if d in p and p[d].get("total_ios", 0):
            assert d in e
    for must in ("usr_cpu", "iodepth_level", "latency_us"):
        assert must in p, "%s missing from the parsed job" % must
    walk("jobs[%d]" % i, e, p)
# fio's JSON has no group lines: the text's groups add up the exact jobs
assert len(par["groups"]) == 2
for g in par["groups"]:
    for d in ("read", "write"):
        if d in g:
            want = sum(j[d]["io_bytes"] for j in eng["jobs"] if j["groupid"] == g["groupid"] and d in j)
            close("groups[%d].%s" % (g["groupid"], d), "io_bytes", want, g[d]["io_bytes"])
for i, (e, p) in enumerate(zip(eng["disk_util"], par["disk_util"])):
    walk("disk_util[%d]" % i, e, p)
assert len(par["disk_util"]) == len(eng["disk_util"])
print("ok: %d numbers agree" % checked[0])
PY
