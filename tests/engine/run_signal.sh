#!/bin/bash
# SPDX-License-Identifier: MIT
# SIGINT stops a long run cleanly: results of the measured part are still printed.
set -uo pipefail
: "${FIOSCOPE:?}"
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
cd /tmp
start=$(date +%s)
"$FIOSCOPE" run --name=long --ioengine=null --size=16m --runtime=60 --time_based >"$out" 2>"$err" &
pid=$!
sleep 1.2
kill -INT $pid
wait $pid
rc=$?
elapsed=$(( $(date +%s) - start ))
[ $elapsed -lt 10 ] || { echo "FAIL: did not stop ($elapsed s)"; exit 1; }
[ $rc -eq 1 ] || { echo "FAIL: exit $rc"; exit 1; }
grep -q "interrupted by a signal" "$err" || { echo "FAIL: no note: $(cat "$err")"; exit 1; }
grep -q "^long: (groupid=0, jobs=1): err= 0" "$out" || { echo "FAIL: no results"; cat "$out"; exit 1; }
grep -Eq "^   READ: bw=.*run=([2-9][0-9]{2}|1[0-9]{3})-([2-9][0-9]{2}|1[0-9]{3})msec" "$out" || { echo "FAIL: runtime not ~1 s (0.2-2 s; the machine may be loaded)"; grep READ "$out"; exit 1; }
echo "ok: interrupted after $elapsed s with results"
