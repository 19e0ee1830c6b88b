#!/bin/bash
# SPDX-License-Identifier: MIT
# Safety and errors: no writes into files fioscope did not create, reading them is fine,
# unknown options are named (with file:line for job files), exit codes are the contract's.
set -uo pipefail
: "${FIOSCOPE:?}"
dir=$(mktemp -d /tmp/fsc_safety.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

head -c 1048576 /dev/urandom >"$dir/precious"
sum=$(md5sum <"$dir/precious")
"$FIOSCOPE" run --name=w --rw=write --filename="$dir/precious" --size=1m 2>"$dir/err" >/dev/null
[ $? -eq 1 ] || fail "write into a foreign file was not refused"
grep -q "refusing to write to existing file $dir/precious that fioscope did not create (use --allow-overwrite)" "$dir/err" ||
    fail "unclear refusal: $(cat "$dir/err")"
"$FIOSCOPE" run --output-format=json --name=r --rw=randread --filename="$dir/precious" >"$dir/out" 2>"$dir/err" ||
    fail "reading an existing file failed: $(cat "$dir/err")"
grep -q '"total_ios" : 256' "$dir/out" || fail "read job did not read the whole 1 MiB file"
[ "$(md5sum <"$dir/precious")" = "$sum" ] || fail "the existing file changed"
[ -f "$dir/precious" ] || fail "the existing file was removed"
"$FIOSCOPE" run --allow-overwrite --name=w --rw=write --filename="$dir/precious" --size=1m >/dev/null 2>&1 ||
    fail "--allow-overwrite did not allow the write"
[ -f "$dir/precious" ] || fail "a file fioscope did not create was removed"

"$FIOSCOPE" run --name=x --size=1m --ioengine=null --verfy=md5 2>"$dir/err" >/dev/null
[ $? -eq 2 ] || fail "unknown option: wrong exit status"
grep -q "unknown or unsupported option 'verfy' (did you mean 'verify'?)" "$dir/err" ||
    fail "unknown option not named: $(cat "$dir/err")"

printf '[global]\nsize=1m\n[j]\nioengine=null\nrw=randtrim\n' >"$dir/bad.fio"
"$FIOSCOPE" run "$dir/bad.fio" 2>"$dir/err" >/dev/null
[ $? -eq 2 ] || fail "bad job file: wrong exit status"
grep -q "$dir/bad.fio:5: rw=randtrim is not supported" "$dir/err" || fail "no file:line: $(cat "$dir/err")"

"$FIOSCOPE" run --name=x 2>"$dir/err" >/dev/null
[ $? -eq 2 ] && grep -q "size is not set" "$dir/err" || fail "missing size not reported"
echo "ok: safety and errors"
