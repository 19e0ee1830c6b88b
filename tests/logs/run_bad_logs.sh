#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bad log files: a truncated last line, a non-numeric line, time going backwards,
# absurd values, a layout that is none of fio's, a damaged compressed log. Each is a
# warning naming the file and the line; every good row is kept; nothing crashes (this
# runs under ASan in make test too) and the exit status stays 0 (--fail-on=warning
# makes it 1).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
d=$tmp/logs
mkdir "$d"
printf '100, 5, 0, 4096, 0\n200, 6, 0, 4096, 0\nhello world\n300, 7, 1, 4096, 0\n' >"$d/words_bw.1.log"
printf '100, 5, 0, 4096, 0\n200, 6, 0, 4096, 0\n300, 7, 0, 40' >"$d/cut_bw.1.log"
printf '100, 5, 0, 4096, 0\n200, 6, 0, 4096, 0\n150, 7, 0, 4096, 0\n250, 8, 0, 4096, 0\n' >"$d/back_clat.1.log"
printf '100, 5, 0, 4096, 0\n200, -6, 0, 4096, 0\n300, 99999999999999999999999, 0, 4096, 0\n400, 8, 0, 4096, 0\n' >"$d/absurd_lat.1.log"
printf '1, 2, 3\n4, 5, 6\n' >"$d/three_iops.1.log"
{ printf '100, 0, 4096'; for i in $(seq 100); do printf ', 0'; done; printf '\n'; } >"$d/odd_clat_hist.1.log"
printf 'x\x9c\x01\x02garbage' >"$d/broken_bw.1.log.fz"
"$FIOSCOPE" parse "$d" >"$tmp/out.json" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] || { echo "FAIL: exit status $rc: $(cat "$tmp/err")"; fail=1; }
"$FIOSCOPE" parse -q --fail-on=warning "$d" >/dev/null 2>&1 && { echo "FAIL: --fail-on=warning gave 0"; fail=1; }
/usr/bin/python3 - "$tmp/out.json" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
runs = doc['runs']
warn = [w['message'] for r in runs for w in r['warnings']]
series = {s['path'].rsplit('/', 1)[1]: s for r in runs for s in r.get('series', [])}
want = {
    'words_bw.1.log:3: not a row of numbers': ('words_bw.1.log', [100, 200, 300]),
    'cut_bw.1.log:3: truncated last line': ('cut_bw.1.log', [100, 200]),
    'back_clat.1.log:3: time goes backwards': ('back_clat.1.log', [100, 200, 150, 250]),
    'absurd_lat.1.log:2: absurd value': ('absurd_lat.1.log', [100, 400]),
    'absurd_lat.1.log:3: absurd value': ('absurd_lat.1.log', [100, 400]),
    'three_iops.1.log:1: unknown layout': (None, None),
    'odd_clat_hist.1.log:1: unknown histogram layout': (None, None),
    'broken_bw.1.log.fz: compressed data damaged': (None, None),
}
ok = True
for prefix, (name, times) in want.items():
    if not any(m.startswith(prefix) for m in warn):
        print('FAIL: no warning "%s..." in %s' % (prefix, warn)); ok = False
    if name and series.get(name, {}).get('t_ms') != times:
        print('FAIL: %s kept %s, want %s' % (name, series.get(name, {}).get('t_ms'), times)); ok = False
for name in ('three_iops.1.log', 'odd_clat_hist.1.log'):
    if name in series:
        print('FAIL: %s of an unknown layout gave a series' % name); ok = False
if any(i['status'] != 'ok' for i in doc['inputs']):
    print('FAIL: inputs %s' % doc['inputs']); ok = False
sys.exit(0 if ok else 1)
PY
[ $fail = 0 ] && echo "ok: bad logs give warnings with file and line, good rows kept"
exit $fail
