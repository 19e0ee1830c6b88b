#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fio's steady state (--ss): the normal text's "steadystate  :" line must give what
# fio's JSON of the same run says (attained, criterion to the printed digits, the
# window's means), for deviation and slope criteria, attained or not; and
# `fioscope series --steady` judges a logged run with fio's own criterion.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for d in ss_dev ss_slope ss_never; do
    # one fio run printed as JSON and as normal text: read each printout on its own
    /usr/bin/python3 - "$fx/$d/out.txt" "$tmp/$d" <<'PY'
import sys
text = open(sys.argv[1]).read()
start = text.index('{\n')
end = text.index('\n}\n', start) + 3
open(sys.argv[2] + '.json', 'w').write(text[start:end])
open(sys.argv[2] + '.txt', 'w').write(text[:start] + text[end:])
PY
    "$FIOSCOPE" parse -q "$tmp/$d.txt" >"$tmp/$d.text.json" &&
        "$FIOSCOPE" parse -q "$tmp/$d.json" >"$tmp/$d.fio.json" || { echo "FAIL: parse $d"; fail=1; continue; }
    /usr/bin/python3 - "$tmp/$d.text.json" "$tmp/$d.fio.json" "$d" <<'PY' || fail=1
import json, sys
def ss(path, fmt):
    runs = json.load(open(path))['runs']
    assert [r['source']['format'] for r in runs] == [fmt], (path, runs)
    return runs[0]['jobs'][0]['steadystate']
text, js = ss(sys.argv[1], 'normal'), ss(sys.argv[2], 'json')
name = sys.argv[3]
def num(c):
    return float(c.rstrip('%'))
ok = True
if text['attained'] != js['attained']:
    ok = False; print('FAIL: %s: attained %s, fio JSON %s' % (name, text['attained'], js['attained']))
# the text prints %.3f: equal to fio's value rounded there
if abs(num(text['criterion']) - num(js['criterion'])) > 0.0005 or \
        text['criterion'].endswith('%') != js['criterion'].endswith('%'):
    ok = False; print('FAIL: %s: criterion %s, fio JSON %s' % (name, text['criterion'], js['criterion']))
# means: iops printed whole (or with k), bw in KiB/s with 3-4 significant digits
if abs(text['data']['iops_mean'] - js['data']['iops_mean']) > 0.5 or \
        abs(text['data']['bw_mean'] - js['data']['bw_mean']) > js['data']['bw_mean'] * 0.0005 + 1024:
    ok = False; print('FAIL: %s: means %s vs %s' % (name, text['data'], js['data']))
sys.exit(0 if ok else 1)
PY
done
# both printouts of one run are one run: the steady state of fio's JSON is kept
"$FIOSCOPE" parse -q "$fx/ss_dev/out.txt" >"$tmp/both.json"
/usr/bin/python3 - "$tmp/both.json" <<'PY' || fail=1
import json, sys
runs = json.load(open(sys.argv[1]))['runs']
if len(runs) != 1 or runs[0]['jobs'][0]['steadystate'].get('ss') != 'iops:20.000000%':
    sys.exit('FAIL: normal,json: %s' % [r['jobs'][0].get('steadystate') for r in runs])
PY
# a logged run judged again: 1 s iops, window 2 s, 20% deviation (fio stopped ss_dev when
# its 3 s window was steady: two whole seconds are logged)
"$FIOSCOPE" series -q --steady 'iops:20%' --steady-dur 2 "$fx/ss_dev" >"$tmp/ss.csv" || { echo "FAIL: series --steady"; fail=1; }
grep -q ',ss_dev,iops:20%,yes,' "$tmp/ss.csv" || { echo "FAIL: --steady: $(cat "$tmp/ss.csv")"; fail=1; }
"$FIOSCOPE" series -q --steady 'iops:0.0001%' --steady-dur 2 "$fx/ss_dev" >"$tmp/ss2.csv"
grep -q ',ss_dev,iops:0.0001%,no,' "$tmp/ss2.csv" || { echo "FAIL: --steady never: $(cat "$tmp/ss2.csv")"; fail=1; }
[ $fail = 0 ] && echo "ok: steady state from text equals fio's JSON; series --steady judges like fio"
exit $fail
