#!/usr/bin/python3
"""Oracle for fio 3.33 log files: every series of `fioscope parse` output (stdin)
must equal the log file it names, row for row and column for column, in fio 3.33's
column layout (time, value, dir, bs, [offset,] prio; histogram logs: time, dir, bs,
bins). Logs stored compressed (.fz) are compared with the text `fio --inflate-log`
printed for them (fixtures/fz-inflated). Prints one line per series checked and exits 1
on the first difference."""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
doc = json.load(sys.stdin)
series = [s for r in doc['runs'] for s in r.get('series', [])]
if not series:
    sys.exit('no series in the output')
# per_job_logs=0 files hold one section per clone: compare them one after another
done_rows = {}
checked = 0
for s in series:
    path = os.path.join(root, s['path'])
    if path.endswith('.fz'):
        path = os.path.join(os.path.dirname(os.path.dirname(path)), 'fz-inflated',
                            os.path.basename(path)[:-3])
    rows = [[int(x, 0) for x in line.split(',')] for line in open(path) if line.strip()]
    start = done_rows.get(path, 0)
    n = len(s['t_ms'])
    rows = rows[start:start + n]
    done_rows[path] = start + n
    if len(rows) != n:
        sys.exit('%s: %d rows in the file, %d in the series' % (s['path'], len(rows), n))
    if s['kind'].endswith('_hist'):
        want = {'t_ms': 0, 'dir': 1, 'bs': 2}
        if [r[3:] for r in rows] != s['bins']:
            sys.exit('%s: bins differ' % s['path'])
    else:
        width = len(rows[0]) if rows else 2
        names = {2: ['t_ms', 'value'], 5: ['t_ms', 'value', 'dir', 'bs', 'prio'],
                 6: ['t_ms', 'value', 'dir', 'bs', 'offset', 'prio']}[width]
        want = {name: i for i, name in enumerate(names)}
        extra = set(s) - set(names) - {'job', 'kind', 'path', 'member', 'unit', 'clone', 'section'}
        if extra:
            sys.exit('%s: unexpected columns %s' % (s['path'], sorted(extra)))
    for name, col in want.items():
        got = s.get(name)
        if got != [r[col] for r in rows]:
            sys.exit('%s: column %s differs' % (s['path'], name))
    unit = {'bw': 'KiB/s', 'iops': 'count'}.get(s['kind'], 'ns')
    if s['unit'] != unit:
        sys.exit('%s: unit %s, not %s' % (s['path'], s['unit'], unit))
    checked += 1
    print('ok %s %s: %d rows' % (s['path'], s['kind'], n))
print('%d series equal their files' % checked)
