#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fio JSON of every era in the corpus, through `fioscope parse`: each document must
# come out field by field as fio wrote it (fio_json_check.py), including documents
# after stderr junk, several documents in one file, and client/server JSON.
set -u
corpus=${FSC_CORPUS:?}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0

cd "$corpus" || exit 1
files=(fio-*/g_json*.json fio-*/g_normal_json.txt fio-*/g_normal_terse_json.txt fio-3.33-oracle/*.txt
       wild/Arau__fio-results-tmp/*
       wild/GoogleCloudPlatform__PerfKitBenchmarker/*.json
       wild/bensonjohnson__FIO-tests/fio.json
       wild/distributed-system-analysis__pbench/*fio-result.txt
       wild/louwrentius__fio-plot/*.json
       wild/rsyring__disk-bench/*)
for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    if ! "$FIOSCOPE" parse "$f" >"$tmp/out.json" 2>"$tmp/err"; then
        echo "FAIL: fioscope parse $f: $(cat "$tmp/err")"
        fail=1
        continue
    fi
    python3 "$here/fio_json_check.py" "$f" "$tmp/out.json" >"$tmp/check" || { cat "$tmp/check"; fail=1; }
    checked=$((checked + 1))
done

# Where the documents are: junk before, two documents in one file, an erroring job.
expect() { # file, python expression over d (the parse output) that must hold
    "$FIOSCOPE" parse "$1" >"$tmp/one.json" 2>/dev/null
    if ! python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['runs']; sys.exit(0 if ($2) else 1)" \
        "$tmp/one.json"; then
        echo "FAIL: $1: $2"
        fail=1
    fi
}
expect wild/Arau__fio-results-tmp/longterm-tests__bench-results__t1-writes__writes-100-0 \
    "[(x['source']['first_line'], x['source']['last_line']) for x in r] == [(1, 313), (317, 629)]"
expect wild/bensonjohnson__FIO-tests/fio.json \
    "len(r) == 1 and r[0]['source']['first_line'] == 3 and r[0]['jobs'][0]['jobname'] == 'sequential_read'"
expect wild/louwrentius__fio-plot/party__fio__1m__run-1__write-64-1.json \
    "r[0]['source']['first_line'] == 4 and r[0]['jobs'][0]['error'] == 22"
expect fio-2.0.15/g_json.json \
    "r[0]['jobs'][0]['read']['io_bytes'] == 1954592 * 1024 and r[0]['jobs'][0]['read']['clat_ns']['percentile']['99.990000'] == 4048000"
expect fio-2.15/g_jsonplus.json \
    "r[0]['jobs'][0]['read']['clat_ns']['bins']['20352000'] == 1"

echo "$checked JSON inputs checked"
[ "$checked" -ge 40 ] || { echo "FAIL: too few inputs found under $corpus"; fail=1; }
exit $fail
