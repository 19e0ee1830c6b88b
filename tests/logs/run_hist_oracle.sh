#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Latency percentiles over time from histogram logs: `fioscope series --pctl` must print
# what fio's own fiologparser_hist.py (Debian's fio package, /usr/share/doc/fio) prints,
# byte for byte, for fresh fio 3.33 logs and for generated ones (two clones merged,
# Unix-time stamps, coarse bins, several intervals, percentiles and decimals).
set -u
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
script=/usr/share/doc/fio/fiologparser_hist.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -f "$script.gz" ]; then zcat "$script.gz" >"$tmp/flh.py"
elif [ -f "$script" ]; then cp "$script" "$tmp/flh.py"
else echo "SKIP: $script not installed (Debian package fio)"; exit 0; fi
"$py" -c 'import numpy, pandas' 2>/dev/null || { echo "SKIP: python3-numpy/pandas missing"; exit 0; }
"$py" - "$tmp" <<'PY'
import random, sys, os
random.seed(7)
def write(name, t0, step, rows, nb=1856, dirs=(0, 1)):
    with open(os.path.join(sys.argv[1], name), 'w') as f:
        t = t0
        for r in range(rows):
            t += step + random.randint(-2, 2)
            for d in dirs:
                bins = [0] * nb
                for _ in range(random.randint(1, 60)):
                    bins[int(min(nb - 1, abs(random.gauss(nb / 2, nb / 8))))] += random.randint(1, 500)
                if random.random() < 0.05:
                    bins = [0] * nb
                f.write('%d, %d, 4096, %s\n' % (t, d, ', '.join(map(str, bins))))
write('a_clat_hist.1.log', 0, 100, 60)
write('a_clat_hist.2.log', 0, 100, 50)
write('e_clat_hist.1.log', 1796087719352, 250, 30, dirs=(0,))
write('c_clat_hist.1.log', 0, 333, 40, nb=232)
PY
fail=0 n=0
# every case: fioscope's table now, fiologparser_hist.py's later, all in one Python
# (numpy and pandas load once)
cases=$tmp/cases
: >"$cases"
compare() { # label "python args" "fioscope args" files...
    local label=$1 pa=$2 ca=$3; shift 3
    n=$((n + 1))
    "$FIOSCOPE" series -q --pctl $ca "$@" >"$tmp/c$n.txt" 2>"$tmp/c.err" || { echo "FAIL: $label: $(cat "$tmp/c.err")"; fail=1; }
    printf '%s\t%s\t%s\n' "$n" "$label" "$pa $*" >>"$cases"
}
fx=$here/fixtures
for f in "$fx"/hist/*_clat_hist.* "$fx"/histcoarse/*_clat_hist.*; do
    compare "$(basename "$f")" "" "" "$f"
    compare "$(basename "$f") 200ms" "-i 200 --decimals 9" "--interval=200 --decimals=9" "$f"
done
compare "fio 3.33 clones" "" "" "$fx"/clones/clone_clat_hist.1.log "$fx"/clones/clone_clat_hist.2.log
compare "clones merged" "" "" "$tmp"/a_clat_hist.1.log "$tmp"/a_clat_hist.2.log
compare "clones 100ms" "-i 100 --decimals 9" "--interval=100 --decimals=9" "$tmp"/a_clat_hist.1.log "$tmp"/a_clat_hist.2.log
compare "unix time" "-i 250" "--interval=250" "$tmp"/e_clat_hist.1.log
compare "coarse" "--percentiles 50,99.9,99.99 --decimals 6" "--pctl=50,99.9,99.99 --decimals=6" "$tmp"/c_clat_hist.1.log
# fiologparser_hist.py itself, each case through its own command line
"$py" - "$tmp/flh.py" "$cases" "$tmp" <<'PY' || fail=1
import contextlib, io, runpy, shlex, sys
script, cases, out = sys.argv[1:4]
for line in open(cases):
    num, label, args = line.rstrip('\n').split('\t')
    sys.argv = [script] + shlex.split(args)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        runpy.run_path(script, run_name='__main__')
    open('%s/py%s.txt' % (out, num), 'w').write(buf.getvalue())
PY
for i in $(seq "$n"); do
    label=$(awk -F'\t' -v i="$i" '$1 == i {print $2}' "$cases")
    if ! cmp -s "$tmp/py$i.txt" "$tmp/c$i.txt"; then
        echo "FAIL: $label differs from fiologparser_hist.py:"; diff "$tmp/py$i.txt" "$tmp/c$i.txt" | head -6; fail=1
    fi
done
[ $fail = 0 ] && echo "ok: $n tables equal fiologparser_hist.py's"
exit $fail
