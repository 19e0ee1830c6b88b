#!/bin/bash
# SPDX-License-Identifier: MIT
# fio options whose effect can be seen, each against what fio does: rate / rate_iops,
# offset / offset_increment, nrfiles, verify (and a corrupted block found), fio's
# random map (every block once per pass) and norandommap, randseed, bssplit,
# rwmixread, number_ios / io_size / loops, thinktime, startdelay, exitall,
# unified_rw_reporting, fsync / fdatasync, json+ bins, --ignore-unsupported.
set -uo pipefail
: "${FIOSCOPE:?}"
dir=$(mktemp -d /var/tmp/fsc_opts.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
run() { "$FIOSCOPE" run --output-format=json --directory="$dir" "$@" >"$dir/out.json" 2>"$dir/err" ||
            fail "run $*: $(cat "$dir/err")"; }
# py EXPR...: assertions over j (first job), jobs, doc
py() {
    python3 - "$dir/out.json" "$@" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
jobs = doc["jobs"]
j = jobs[0]
r, w = j["read"], j["write"]
for expr in sys.argv[2:]:
    if not eval(expr):
        raise SystemExit("FAIL: %s  (read %s ios %s iops, write %s ios %s iops)" % (expr, r["total_ios"], r["iops"], w["total_ios"], w["iops"]))
PY
    [ $? -eq 0 ] || exit 1
}
offsets() { python3 -c "import sys; print(' '.join(l.split(',')[4].strip() for l in open(sys.argv[1])))" "$1"; }

run --name=r --rw=randread --size=4m --rate_iops=200 --runtime=1 --time_based
py '180 <= r["iops"] <= 215'
run --name=r --rw=read --size=4m --rate=512k --runtime=1 --time_based
py '110 <= r["iops"] <= 140' 'r["bw"] <= 560'
echo "ok: rate_iops and rate keep their pace"

run --name=o --rw=write --size=256k --offset=1m --offset_increment=512k --numjobs=2 --filename=shared \
    --write_iops_log=o --log_offset=1
for n in 1 2; do
    set -- $(offsets o_iops.$n.log | tr ' ' '\n' | sort -n | sed -n '1p;$p')
    want=$(( (1 << 20) + (n - 1) * (512 << 10) ))
    [ "$1" = "$want" ] && [ "$2" = $(( want + (256 << 10) - 4096 )) ] || fail "offsets of clone $n: $1..$2, want $want.."
done
echo "ok: offset and offset_increment"

"$FIOSCOPE" run --directory="$dir" --name=n --rw=write --size=4m --nrfiles=4 >"$dir/out" 2>"$dir/err" || fail "nrfiles"
grep -q "n: Laying out IO files (4 files / total 4MiB)" "$dir/out" || fail "nrfiles: $(grep Laying "$dir/out")"
grep -q "issued rwts: total=0,1024,0,0" "$dir/out" || fail "nrfiles: I/O count"
echo "ok: nrfiles"

for v in crc32c md5 sha256; do
    run --name=v --rw=randwrite --bs=8k --size=1m --verify=$v
    py 'j["error"] == 0' 'w["total_ios"] == 128' 'r["total_ios"] == 128'
done
# written with headers, one block overwritten by a job without verify, then read with verify
cat >"$dir/corrupt.fio" <<JOB
[global]
directory=$dir
filename=vfile
size=1m
bs=4k
[write]
rw=write
verify=crc32c
do_verify=0
[spoil]
stonewall
rw=randwrite
number_ios=1
zero_buffers
[check]
stonewall
rw=read
verify=crc32c
JOB
"$FIOSCOPE" run --output-format=json "$dir/corrupt.fio" >"$dir/out.json" 2>"$dir/err"
[ $? -eq 1 ] || fail "a corrupted block was not reported"
python3 - "$dir/out.json" <<'PY' || exit 1
import json, sys
check = json.load(open(sys.argv[1]))["jobs"][2]
assert check["jobname"] == "check" and check["error"] == 84, check["error"]
assert check["read"]["total_ios"] == 256   # verify_fatal=0: the whole file is read
PY
grep -q "verify: bad magic header at offset" "$dir/err" || fail "verify message: $(cat "$dir/err")"
echo "ok: verify crc32c, md5, sha256, and a spoiled block found"

run --name=m --rw=randread --size=1m --write_iops_log=m --log_offset=1
[ "$(offsets m_iops.1.log | tr ' ' '\n' | sort -u | wc -l)" = 256 ] || fail "random map: not every block once"
run --name=m --rw=randread --size=1m --norandommap --write_iops_log=m --log_offset=1
d=$(offsets m_iops.1.log | tr ' ' '\n' | sort -u | wc -l)
[ "$d" -lt 230 ] || fail "norandommap: $d distinct blocks of 256 draws (expected repeats)"
run --name=m --rw=randread --size=1m --randseed=42 --write_iops_log=a --log_offset=1
run --name=m --rw=randread --size=1m --randseed=42 --write_iops_log=b --log_offset=1
run --name=m --rw=randread --size=1m --randseed=43 --write_iops_log=c --log_offset=1
[ "$(offsets a_iops.1.log)" = "$(offsets b_iops.1.log)" ] || fail "randseed: not repeatable"
[ "$(offsets a_iops.1.log)" != "$(offsets c_iops.1.log)" ] || fail "randseed: another seed gave the same order"
echo "ok: random map ($d distinct without it), randseed"

run --name=b --rw=randread --size=4m --bssplit=4k/50:64k/50 --ioengine=null
py '4096 * 1.2 < r["io_bytes"] / r["total_ios"] < 65536 * 0.8'
run --name=b --rw=randread --size=4m --bsrange=4k-16k --ioengine=null --write_iops_log=br
python3 -c "
import sys
bs = {int(l.split(',')[3]) for l in open('br_iops.1.log')}
assert bs <= {4096, 8192, 12288, 16384} and len(bs) > 1, bs" || fail "bsrange sizes"
run --name=x --rw=randrw --rwmixread=70 --size=8m --ioengine=null
py '0.65 < r["total_ios"] / (r["total_ios"] + w["total_ios"]) < 0.75'
echo "ok: bssplit, bsrange, rwmixread"

run --name=c --rw=read --size=1m --number_ios=10
py 'r["total_ios"] == 10'
run --name=c --rw=randread --size=1m --io_size=3m
py 'r["total_ios"] == 768'
run --name=c --rw=read --size=1m --loops=3
py 'r["total_ios"] == 768'
echo "ok: number_ios, io_size, loops"

run --name=t --rw=read --size=1m --ioengine=null --thinktime=10ms --runtime=500ms --time_based
py '10 <= r["total_ios"] <= 52'  # 10 ms pauses: at most ~50 in 500 ms (fewer when the machine is loaded)
start=$(date +%s%N)
run --name=t --rw=read --size=64k --ioengine=null --startdelay=400ms
[ $(( ($(date +%s%N) - start) / 1000000 )) -ge 400 ] || fail "startdelay not waited"
run --name=a --rw=read --size=64k --ioengine=null --number_ios=16 --exitall --name=b --rw=read --size=1m \
    --ioengine=null --runtime=20 --time_based
python3 -c "
import json; jobs = json.load(open('out.json'))['jobs']
assert jobs[1]['jobname'] == 'b' and jobs[1]['read']['runtime'] < 5000, jobs[1]['read']['runtime']" || fail "exitall"
printf '[global]\ndirectory=%s\nioengine=null\n[a]\nsize=1m\nrate_iops=2000\n[b]\nwait_for=a\nsize=64k\ncpus_allowed=0\ncpus_allowed_policy=split\nnumjobs=2\n' "$dir" >"$dir/wait.fio"
start=$(date +%s%N)
"$FIOSCOPE" run --output-format=json "$dir/wait.fio" >"$dir/out.json" 2>"$dir/err" || fail "wait_for/cpus_allowed: $(cat "$dir/err")"
[ $(( ($(date +%s%N) - start) / 1000000 )) -ge 100 ] || fail "wait_for: a (128 ms at its rate) was not waited for"
python3 -c "
import json; jobs = json.load(open('out.json'))['jobs']
assert [j['jobname'] for j in jobs] == ['a', 'b', 'b'] and all(j['error'] == 0 for j in jobs)
assert jobs[1]['read']['total_ios'] == 16" || fail "wait_for/cpus_allowed results"
echo "ok: thinktime, startdelay, exitall, wait_for, cpus_allowed"

run --name=u --rw=randrw --size=1m --ioengine=null --unified_rw_reporting=mixed
python3 -c "
import json; j = json.load(open('out.json'))['jobs'][0]
assert 'mixed' in j and 'read' not in j and j['mixed']['total_ios'] == 256, list(j)" || fail "unified mixed"
run --name=f --rw=write --size=1m --fsync=8 --name=g --rw=write --size=1m --fdatasync=16 --end_fsync=1
python3 -c "
import json; jobs = json.load(open('out.json'))['jobs']
assert jobs[0]['sync']['total_ios'] == 32 and jobs[1]['sync']['total_ios'] == 16, [j['sync']['total_ios'] for j in jobs]" ||
    fail "fsync/fdatasync counts"
echo "ok: unified_rw_reporting, fsync, fdatasync"

"$FIOSCOPE" run --output-format=json+ --directory="$dir" --name=p --rw=randread --size=1m --lat_percentiles=1 \
    --percentile_list=50:99 >"$dir/out.json" || fail "json+"
py 'sum(r["clat_ns"]["bins"].values()) == r["clat_ns"]["N"]' 'list(r["lat_ns"]["percentile"]) == ["50.000000", "99.000000"]'
"$FIOSCOPE" run --ignore-unsupported --output-format=json --directory="$dir" --name=i --size=64k --ioengine=null \
    --frobnicate=7 >"$dir/out.json" 2>"$dir/err" || fail "--ignore-unsupported did not run"
grep -q "option ignored (--ignore-unsupported): frobnicate=7" "$dir/err" || fail "ignored option not listed: $(cat "$dir/err")"
echo "ok: json+ bins, lat percentiles, --ignore-unsupported"
[ -z "$(ls "$dir" | grep -v '\.log$\|^out\|^err$\|\.fio$')" ] || fail "data files left: $(ls "$dir")"
# the job header shows each direction's block size range, as fio's
"$FIOSCOPE" run --name=h --bs=4k,8k --size=64k --ioengine=null --rw=randrw >"$dir/out" || fail "bs=4k,8k"
head -1 "$dir/out" | grep -qF \
    "h: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 8192B-8192B, (T) 8192B-8192B, ioengine=null, iodepth=1" ||
    fail "job header of bs=4k,8k"
"$FIOSCOPE" run --name=h --bsrange=4k-64k --size=1m --ioengine=null --rw=randrw >"$dir/out" || fail "bsrange"
head -1 "$dir/out" | grep -qF \
    "bs=(R) 4096B-64.0KiB, (W) 4096B-64.0KiB, (T) 4096B-64.0KiB" || fail "job header of bsrange"
echo "ok: job header block sizes"
