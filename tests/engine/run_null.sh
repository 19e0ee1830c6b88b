#!/bin/bash
# SPDX-License-Identifier: MIT
# The null engine: JSON and text of one run agree, and the numbers follow fio's definitions.
set -euo pipefail
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cd /tmp
"$FIOSCOPE" run --output-format=normal,json --name=nulljob --ioengine=null --rw=randread --bs=4k \
    --size=64m --runtime=700ms --time_based >"$out"
python3 - "$out" "$FSC_SOURCE_DIR/tests/engine" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[2])
from split_output import split, contract, parse, unused
pre, doc, text = split(open(sys.argv[1]).read())
pl = pre.split("\n")
assert pl[0] == "nulljob: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=null, iodepth=1", pl[0]
assert pl[1] == "fioscope-engine-0.1.0", pl[1]
assert pl[2] == "Starting 1 thread", pl[2]
assert doc["fio version"] == "fioscope-engine-0.1.0" and doc["jobs"][0]["job options"]["ioengine"] == "null"
run = contract(doc)
trun = parse(pre + text)
assert trun["source"]["format"] == "engine" and run["source"]["fio_version"] == "fioscope-engine-0.1.0"
job = run["jobs"][0]
r = job["read"]
n = r["total_ios"]
assert n > 1000, n
assert r["io_bytes"] == n * 4096
assert 650 <= r["runtime"] <= 800, r["runtime"]
assert r["bw_bytes"] == r["io_bytes"] * 1000 // r["runtime"]
assert r["bw"] == r["bw_bytes"] // 1024
assert abs(r["iops"] - n * 1000 / r["runtime"]) < 1e-6
clat, lat = r["clat_ns"], r["lat_ns"]
assert clat["N"] == n and lat["N"] == n
assert clat["min"] <= clat["mean"] <= clat["max"]
assert lat["mean"] >= clat["mean"]                    # lat = slat + clat
assert r["slat_ns"]["N"] == 0                          # sync engine: no submission latency
assert "slat_ns" not in trun["jobs"][0]["read"]
p = clat["percentile"]
assert len(p) == 17 and "99.990000" in p
vals = [p[k] for k in sorted(p, key=float)]
assert vals == sorted(vals)
assert r["bw_samples"] == 1 and r["iops_samples"] == 1  # one 500 ms interval in 700 ms
assert job["iodepth_level"]["1"] == 100.0
assert job["groupid"] == 0 and trun["jobs"][0]["jobs"] == 1 and job["error"] == 0
assert unused(job["write"]) and unused(trun["jobs"][0].get("write", {}))
g = trun["groups"][0]["read"]
assert abs(g["io_bytes"] - r["io_bytes"]) <= 0.006 * r["io_bytes"] and g["runtime_max"] == r["runtime"], (g, r["runtime"])
assert run["disk_util"] == [] and trun["disk_util"] == []                          # null engine: no device
# the text shows the same numbers
assert "issued rwts: total=%d,0,0,0 short=0,0,0,0 dropped=0,0,0,0" % n in text
m = re.search(r"\(([\d.]+)(\w+)/(\d+)msec\)", text)
assert int(m.group(3)) == r["runtime"]
m = re.search(r"clat \(nsec\): min=(\d+),", text)
if m:
    assert int(m.group(1)) == clat["min"]
m = re.search(r"iops        : min=\s*(\d+), max=\s*(\d+), avg=([\d.]+)", text)
assert int(m.group(1)) == r["iops_min"] and float(m.group(3)) == round(r["iops_mean"], 2)
assert "Run status group 0 (all jobs):" in text and "Disk stats" not in text
print("ok: null engine", n, "I/Os")
PY
