#!/bin/bash
# SPDX-License-Identifier: MIT
# psync on a small file in /tmp: exact I/O counts for a sized (not time-based) job,
# fsync accounting, a job file with two groups, and the data files are removed again.
set -euo pipefail
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}"
dir=$(mktemp -d /tmp/fsc_psync.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/two.fio" <<JOB
[global]
ioengine=psync
directory=$dir
size=2m

[rd]
rw=read
bs=64k

[wr]
stonewall
rw=randwrite
fsync=16
numjobs=2
group_reporting
JOB
"$FIOSCOPE" run "$dir/two.fio" --output-format=normal,json >"$dir/out"
python3 - "$dir/out" "$FSC_SOURCE_DIR/tests/engine" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from split_output import split, contract, parse
pre, doc, text = split(open(sys.argv[1]).read())
assert "rd: Laying out IO file (1 file / 2MiB)" in pre, pre
assert "Starting 3 threads" in pre
run = contract(doc)
trun = parse(pre + text)
run["groups"] = trun["groups"]
for j, t in zip(run["jobs"], trun["jobs"]):
    j["jobs"] = t["jobs"]  # fio's JSON has no clone count; the text's job line has
rd, wr = run["jobs"]
assert rd["jobname"] == "rd" and rd["groupid"] == 0 and rd["jobs"] == 1
assert rd["read"]["total_ios"] == 32 and rd["read"]["io_bytes"] == 2 << 20    # 2 MiB / 64 KiB
assert wr["jobname"] == "wr" and wr["groupid"] == 1 and wr["jobs"] == 2
assert wr["write"]["total_ios"] == 2 * 512                                   # two clones x 2 MiB / 4 KiB
assert wr["sync"]["total_ios"] == 2 * 512 // 16 - 2 or wr["sync"]["total_ios"] == 2 * 512 // 16, wr["sync"]
assert wr["sync"]["lat_ns"]["N"] == wr["sync"]["total_ios"]
assert [g["groupid"] for g in run["groups"]] == [0, 1]
assert run["groups"][1]["write"]["io_bytes"] == 4 << 20
assert "Run status group 1 (all jobs):" in text and "fsync/fdatasync/sync_file_range:" in text
assert "issued rwts: total=0,1024,0,%d" % wr["sync"]["total_ios"] in text
print("ok: psync", rd["read"]["total_ios"], wr["write"]["total_ios"])
PY
left=$(ls "$dir")
[ "$left" = "$(printf 'out\ntwo.fio')" ] || { echo "data files left behind: $left"; exit 1; }
