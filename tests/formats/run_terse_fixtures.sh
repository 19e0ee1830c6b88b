#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fio 3.33 runs written as terse (versions 3, 4, 5) and JSON at once (tests/oracle/mk.sh):
# each document parses (--each-format) to one terse and one JSON run that agree field
# by field within terse's printed precision (terse_json_agree.py), parses without it
# to one run of both formats, and reads the same
# wrapped at any width, its records cut into lines (terse_wraps.py; the ASan build
# tries fewer widths).
set -u
: "${FIOSCOPE:?}"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 outs=()
for f in "$here"/fixtures/*.terse+json.txt; do
    out="$tmp/$(basename "$f").json"
    "$FIOSCOPE" parse --each-format "$f" > "$out" || { echo "FAIL: fioscope parse $f"; fail=1; }
    outs+=("$out")
    # without --each-format the two are one run (a job that failed on its first I/O,
    # continue-on-error; a job named with ';', name-semicolon: 006 and 005 of h47)
    merged=$("$FIOSCOPE" parse --jsonl -q "$f" | grep -c '"formats":\["terse","json"\]')
    [ "$merged" = 1 ] || { echo "FAIL: $f: terse and JSON not one run ($merged merged)"; fail=1; }
done
[ ${#outs[@]} -ge 5 ] || { echo "FAIL: fixtures missing"; fail=1; }
python3 "$here/terse_json_agree.py" "${outs[@]}" || fail=1
step=8
case "${FSC_BUILD_DIR:-}" in *asan*) step=24; export TERSE_WRAPS_EXACT_MAX=2 ;; esac
python3 "$here/terse_wraps.py" "$FIOSCOPE" "$step" "$here"/fixtures/*.terse+json.txt || fail=1
exit $fail
