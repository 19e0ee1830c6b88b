#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fresh fio 3.33 logs (fixtures/, made by mkfixtures.sh) come out exactly: every row,
# time, direction, block size, offset, priority and histogram bin of every log equals
# the file (check_series.py), whether the log is read whole, in pieces with every block
# moved to the temporary file, inside a tar.gz, streamed as JSON Lines, or decoded from
# fio's compressed (.fz) samples. Log files are never "no fio run found".
set -u
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
py=/usr/bin/python3
cd "$fx" || exit 1
for d in */; do
    d=${d%/}
    case "$d" in ss_slope|ss_never) continue ;; esac
    modes=whole
    # pieces of 4 KiB, every block in the temporary file: the layouts that matter
    case "$d" in perio|clones|perjob0|hist|offset) modes="whole pieces" ;; esac
    for mode in $modes; do
        if [ $mode = pieces ]; then export FIOSCOPE_PIECE_BYTES=4096 FIOSCOPE_LOG_MEM_BLOCKS=0; fi
        if ! "$FIOSCOPE" parse "$d" >"$tmp/out.json" 2>"$tmp/err"; then
            echo "FAIL: parse $d ($mode): $(cat "$tmp/err")"; fail=1
        elif ! "$py" "$here/check_series.py" . <"$tmp/out.json" >"$tmp/check" 2>&1; then
            echo "FAIL: $d ($mode): $(tail -1 "$tmp/check")"; fail=1
        fi
        unset FIOSCOPE_PIECE_BYTES FIOSCOPE_LOG_MEM_BLOCKS
    done
    # every log file is an input of status ok, none "no-runs"
    "$py" - "$tmp/out.json" "$d" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
bad = [i for i in doc['inputs'] if i['status'] != 'ok']
if bad:
    sys.exit('FAIL: %s: inputs not ok: %s' % (sys.argv[2], bad))
PY
done
# JSON Lines: the same series, streamed
"$FIOSCOPE" parse --jsonl -q perio hist >"$tmp/out.jsonl" || { echo "FAIL: --jsonl"; fail=1; }
"$py" - "$tmp/out.jsonl" >"$tmp/doc.json" <<'PY'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if '"input"' not in l[:12]]
print(json.dumps({'runs': [r for r in runs if 'id' in r]}))
PY
"$py" "$here/check_series.py" . <"$tmp/doc.json" >"$tmp/check" 2>&1 || { echo "FAIL: jsonl: $(tail -1 "$tmp/check")"; fail=1; }
# inside an archive: the logs join the run found in the same archive
tar czf "$tmp/perio.tgz" perio
"$FIOSCOPE" parse -q "$tmp/perio.tgz" >"$tmp/tar.json" || { echo "FAIL: tgz"; fail=1; }
"$py" - "$tmp/tar.json" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
series = [s for r in doc['runs'] if r['source']['format'] != 'log' for s in r.get('series', [])]
if len(series) != 5 or any(s['member'] is None for s in series):
    sys.exit('FAIL: tgz: %d series attached to the run' % len(series))
if any(i['status'] != 'ok' for i in doc['inputs']):
    sys.exit('FAIL: tgz: an input is not ok')
PY
# logs alone: one run of format log, exit 0
mkdir "$tmp/alone" && cp perio/*.log "$tmp/alone/"
"$FIOSCOPE" parse "$tmp/alone" >"$tmp/alone.json" 2>"$tmp/err" || { echo "FAIL: logs alone exit $?: $(cat "$tmp/err")"; fail=1; }
"$py" - "$tmp/alone.json" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
runs = doc['runs']
if len(runs) != 1 or runs[0]['source']['format'] != 'log' or len(runs[0]['series']) != 5:
    sys.exit('FAIL: logs alone: %s' % [(r['id'], r['source']['format']) for r in runs])
if [j['jobname'] for j in runs[0]['jobs']] != ['perio']:
    sys.exit('FAIL: logs alone: jobs %s' % runs[0]['jobs'])
PY
# numjobs=2: two series, which --sum adds up interval by interval
"$FIOSCOPE" series -q --kind bw,iops clones >"$tmp/each.csv" &&
    "$FIOSCOPE" series -q --sum --kind bw,iops clones >"$tmp/sum.csv" || { echo "FAIL: series clones"; fail=1; }
"$py" - "$tmp/each.csv" "$tmp/sum.csv" <<'PY' || fail=1
import csv, sys
each = list(csv.DictReader(open(sys.argv[1])))
total = list(csv.DictReader(open(sys.argv[2])))
clones = sorted({r['clone'] for r in each if r['job'] == 'clone'})
if clones != ['1', '2']:
    sys.exit('FAIL: clones %s' % clones)
want = {}
for r in each:
    if r['job'] == 'clone':
        key = (r['kind'], r['t_ms'])
        want[key] = want.get(key, 0) + float(r['value'])
got = {(r['kind'], r['t_ms']): float(r['value']) for r in total if r['job'] == 'clone'}
if set(got) != set(want) or any(abs(got[k] - want[k]) > 1e-6 for k in want):
    sys.exit('FAIL: --sum is not the sum of the clones: %s vs %s' % (got, want))
if any(r['clone'] != 'all' for r in total):
    sys.exit('FAIL: --sum rows name a clone')
PY
[ $fail = 0 ] && echo "ok: every fixture log exact (whole, pieces, jsonl, tgz, alone); clones summed"
exit $fail
