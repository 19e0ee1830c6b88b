#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One fio run printed as normal text and terse (tests/oracle/mk.sh run_three; the
# fixture's JSON taken out) is one run, merged; every field its text shows equals fio's
# JSON (oracle_check.py). With lat_percentiles=1, terse's percentile list is the total
# latency's, not clat's: the text's clat list must survive the merge.
set -u
: "${FIOSCOPE:?}"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pairs=()
for f in "$here"/fixtures/*.normal+terse+json.txt; do
    text="$tmp/$(basename "$f" .normal+terse+json.txt).normal+terse.txt"
    # fio's JSON: from a line "{" to a line "}"
    awk '$0 == "{" { skip = 1 } !skip { print } $0 == "}" { skip = 0 }' "$f" > "$text"
    grep -q '^[345];fio-' "$text" || { echo "FAIL: no terse record in $text"; fail=1; }
    runs=$("$FIOSCOPE" parse --jsonl "$text" 2>/dev/null | grep -c '"formats":\["normal","terse"\]')
    [ "$runs" = 1 ] || { echo "FAIL: $text: want one run of text and terse merged, got $runs"; "$FIOSCOPE" parse --jsonl "$text" | head -c 600; fail=1; }
    pairs+=("$text=$f")
done
[ ${#pairs[@]} -ge 3 ] || { echo "FAIL: fixtures missing"; fail=1; }
ORACLE_MERGED=1 python3 "$here/../oracle/oracle_check.py" "$FIOSCOPE" "${pairs[@]}" || fail=1
exit $fail
