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
cd "$corpus" || exit 1

files=(fio-*/g_json*.json fio-*/g_normal_json.txt fio-*/g_normal_terse_json.txt fio-3.33-oracle/*.txt
       damaged/*.expected.json
       wild/Arau__fio-results-tmp/*
       wild/GoogleCloudPlatform__PerfKitBenchmarker/*.json
       wild/bensonjohnson__FIO-tests/fio.json
       wild/distributed-system-analysis__pbench/*fio-result.txt
       wild/louwrentius__fio-plot/*.json
       wild/rsyring__disk-bench/*)
pairs=()
n=0
for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    if ! "$FIOSCOPE" parse "$f" >"$tmp/$n.json" 2>"$tmp/err"; then
        echo "FAIL: fioscope parse $f: $(cat "$tmp/err")"
        fail=1
        continue
    fi
    pairs+=("$f" "$tmp/$n.json")
    case "$f" in *writes-100-0) cp "$tmp/$n.json" "$tmp/two_docs.json" ;; esac
    case "$f" in */bensonjohnson__FIO-tests/fio.json) cp "$tmp/$n.json" "$tmp/junk_before.json" ;; esac
    case "$f" in */party__fio__1m__run-1__write-64-1.json) cp "$tmp/$n.json" "$tmp/job_error.json" ;; esac
    case "$f" in fio-2.0.15/g_json.json) cp "$tmp/$n.json" "$tmp/v2015.json" ;; esac
    case "$f" in fio-2.15/g_jsonplus.json) cp "$tmp/$n.json" "$tmp/plus215.json" ;; esac
done
python3 "$here/fio_json_check.py" "${pairs[@]}" >"$tmp/check" || { grep -v '^ok:' "$tmp/check"; fail=1; }

# Where the documents are: junk before, two documents in one file, an erroring job.
python3 - "$tmp" <<'PY' || fail=1
import json, sys
def runs(name):
    return json.load(open(f"{sys.argv[1]}/{name}.json"))["runs"]
r = runs("two_docs")
assert [(x["source"]["first_line"], x["source"]["last_line"]) for x in r] == [(1, 313), (317, 629)], r
r = runs("junk_before")
assert len(r) == 1 and r[0]["source"]["first_line"] == 3 and r[0]["jobs"][0]["jobname"] == "sequential_read"
r = runs("job_error")
assert r[0]["source"]["first_line"] == 4 and r[0]["jobs"][0]["error"] == 22
read = runs("v2015")[0]["jobs"][0]["read"]
assert read["io_bytes"] == 1954592 * 1024 and read["clat_ns"]["percentile"]["99.990000"] == 4048000
assert runs("plus215")[0]["jobs"][0]["read"]["clat_ns"]["bins"]["20352000"] == 1
PY

echo "$n JSON inputs checked"
[ "$n" -ge 40 ] || { echo "FAIL: too few inputs found under $corpus"; fail=1; }
exit $fail
