#!/bin/bash
# SPDX-License-Identifier: MIT
# Hardening of the engine (issue #18 M4, M5, L6): a file swapped for a symlink during
# layout is never written through; SIGINT/SIGTERM during layout removes what was created
# and says so; bad values are refused naming the option and the limit, leaving no files;
# job sections with long common prefixes stay separate jobs.
set -uo pipefail
: "${FIOSCOPE:?}"
dir=$(mktemp -d /var/tmp/fsc_attack.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# L6: bad values, each refused with the option and its limit, nothing created
check_bad() {
    local want=$1
    shift
    "$FIOSCOPE" run --name=bad --directory="$dir" "$@" >"$dir/out" 2>"$dir/err"
    local rc=$?
    [ $rc -eq 2 ] || fail "$*: exit $rc (want 2): $(cat "$dir/err")"
    grep -qF -- "$want" "$dir/err" || fail "$*: unclear error: $(cat "$dir/err")"
    [ -z "$(ls "$dir" | grep -v '^out$\|^err$')" ] || fail "$*: files left behind: $(ls "$dir")"
}
check_bad "bs=0: must be between 1 and" --size=1m --bs=0
check_bad "size=-1: not a size" --size=-1
check_bad "iodepth=100000: must be between 1 and 4096" --size=1m --iodepth=100000
check_bad "numjobs=100000: must be between 1 and 1024" --size=1m --numjobs=100000
check_bad "rate=abc: not a rate" --size=1m --rate=abc
check_bad "percentile_list=nan: expected numbers 0-100" --size=1m --percentile_list=nan
check_bad "percentile_list=inf: expected numbers 0-100" --size=1m --percentile_list=inf
check_bad "runtime=1.7e6y" --size=1m --runtime=1.7e6y
check_bad "runtime=53611714341926000: must be at most 4294967295 s" --size=1m --runtime=53611714341926000
check_bad "ramp_time=18446744073709551615: must be at most 4294967295 s" --size=1m --ramp_time=18446744073709551615
check_bad "loops=18446744073709551617: must be between 1 and 1000000000" --size=1m --loops=18446744073709551617
check_bad "at most 4096 threads" --size=1m --numjobs=1000 --name=b2 --size=1m --numjobs=1000 --name=b3 --size=1m --numjobs=1000 \
    --name=b4 --size=1m --numjobs=1000 --name=b5 --size=1m --numjobs=1000
echo "ok: bad values refused"

# L6: loops large but valid and a large runtime still do I/O (no overflow to zero)
"$FIOSCOPE" run --output-format=json --name=l --directory="$dir" --size=64k \
    --runtime=4294967295 --ioengine=null >"$dir/out" 2>"$dir/err" || fail "large runtime: $(cat "$dir/err")"
grep -q '"total_ios" : 16,' "$dir/out" || fail "large runtime did no I/O: $(grep total_ios "$dir/out" | head -1)"
"$FIOSCOPE" run --output-format=json --name=l --directory="$dir" --size=64k --loops=1000000000 --runtime=300ms \
    --ioengine=null >"$dir/out" 2>"$dir/err" || fail "large loops: $(cat "$dir/err")"
grep -q '"total_ios" : [1-9][0-9]*,' "$dir/out" || fail "large loops did no I/O: $(grep total_ios "$dir/out" | head -1)"
echo "ok: large loops and runtime do I/O"

# L6: two sections whose names share their first 60 bytes are two jobs
long=$(printf 'j%.0s' $(seq 60))
printf '[global]\nioengine=null\nsize=64k\n[%sA]\n[%sB]\nrw=write\n' "$long" "$long" >"$dir/long.fio"
"$FIOSCOPE" run --output-format=json "$dir/long.fio" >"$dir/out" 2>"$dir/err" || fail "long names: $(cat "$dir/err")"
python3 - "$dir/out" "$long" <<'PY' || exit 1
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
assert [j["jobname"] for j in jobs] == [sys.argv[2] + "A", sys.argv[2] + "B"], [j["jobname"] for j in jobs]
assert jobs[0]["read"]["total_ios"] == 16 and jobs[1]["write"]["total_ios"] == 16
PY
rm -f "$dir/long.fio"
echo "ok: long section names stay apart"

# M4: the data file replaced by a symlink to someone else's file while it is laid out
head -c 65536 /dev/urandom >"$dir/victim"
sum=$(md5sum <"$dir/victim")
"$FIOSCOPE" run --name=swap --rw=randrw --size=256m --filename="$dir/data" --runtime=1 >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 400); do [ -e "$dir/data" ] && break; sleep 0.005; done
mv "$dir/data" "$dir/moved" 2>/dev/null && ln -s "$dir/victim" "$dir/data"
wait $pid
rc=$?
[ "$(md5sum <"$dir/victim")" = "$sum" ] || fail "the victim file was written"
[ "$(stat -c %s "$dir/victim")" = 65536 ] || fail "the victim file was grown"
if [ -L "$dir/data" ]; then
    [ $rc -eq 1 ] || fail "swap: exit $rc"
    grep -q "was replaced by another file" "$dir/err" ||
        fail "swap: unclear error: $(cat "$dir/err")"
    echo "ok: swapped symlink refused: $(cat "$dir/err")"
else
    echo "ok: (layout finished before the swap; victim untouched)"
fi
rm -f "$dir/data" "$dir/moved" "$dir/victim"

# M5: SIGINT and SIGTERM during layout remove the file and say why
for sig in INT TERM; do
    "$FIOSCOPE" run --name=lay --size=1536m --directory="$dir" --runtime=1 >"$dir/out" 2>"$dir/err" &
    pid=$!
    for _ in $(seq 400); do [ -e "$dir/lay.0.0" ] && break; sleep 0.005; done
    sleep 0.05
    kill -$sig $pid
    wait $pid
    rc=$?
    [ $rc -eq 1 ] || fail "SIG$sig during layout: exit $rc (want 1)"
    [ ! -e "$dir/lay.0.0" ] || fail "SIG$sig during layout left the file"
    grep -q "interrupted by a signal" "$dir/err" || fail "SIG$sig: no note: $(cat "$dir/err")"
    echo "ok: SIG$sig during layout: $(cat "$dir/err")"
done
