#!/usr/bin/env bash
# Every real document of corpus/wild holds fio runs: each must yield at least one run
# (with jobs or summaries), valid JSON and no crash.
set -uo pipefail
dir=${FSC_CORPUS:?}/wild
fails=0 files=0 runs_total=0
while IFS= read -r -d '' f; do
    case "$f" in */INDEX.tsv) continue ;; esac
    files=$((files + 1))
    out=$("$FIOSCOPE" parse -q "$f"); rc=$?
    if [ $rc -gt 1 ]; then echo "FAIL $f: exit $rc"; fails=$((fails + 1)); continue; fi
    n=$(printf '%s' "$out" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))') || n=-1
    if [ "$n" -lt 1 ]; then echo "FAIL $f: $n runs"; fails=$((fails + 1)); continue; fi
    runs_total=$((runs_total + n))
done < <(find "$dir" -type f -print0 | sort -z)
echo "$files wild documents, $runs_total runs; $((files - fails)) passed, $fails failed"
[ $fails = 0 ]
