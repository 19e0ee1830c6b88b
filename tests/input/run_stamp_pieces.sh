#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A CI log with a timestamp on every line (GitHub Actions' raw logs) is cut between
# its runs like the same log without them: the cutter looks past the timestamp that
# normalizing takes off (pieces.c line_lead). Before, it found no run boundary and cut
# loose pieces of 16 MiB, one of which could fall inside a run (a 30 MB log: a run
# split in two, and 81 MB of memory). Its runs must be those of the log without
# timestamps, job for job and line for line, whole and in pieces, from a file and a
# pipe, at -j 1 and 2.
# FIOSCOPE_PIECE_BYTES=16384 makes files above 64 KiB huge (read in pieces).
. "$(dirname "$0")/lib.sh"

runs() { # runs FILE JOBS: the runs' jobs, first and last lines and labels, one a line
    FIOSCOPE_PIECE_BYTES=16384 FIOSCOPE_PLAIN_MIN=20000 "$FIOSCOPE" parse --jsonl -q --fail-on=none \
        -j "$2" "$1" | python3 -c '
import json, sys
for r in map(json.loads, sys.stdin):
    if "jobs" in r:
        print(json.dumps([r["source"]["first_line"], r["source"]["last_line"], r["label"], r["jobs"]]))
'
}
pieces() { # how many documents (pieces) FILE was parsed as, and the largest's bytes
    FIOSCOPE_SHOW_MEMORY=1 FIOSCOPE_PIECE_BYTES=16384 FIOSCOPE_PLAIN_MIN=20000 "$FIOSCOPE" parse --jsonl -q \
        --fail-on=none -j 1 -o /dev/null "$1" 2>&1 | awk '/memory:/ { n++; if ($4 > max) max = $4 } END { print n + 0, max + 0 }'
}

: > plain.txt
for f in "$FSC_CORPUS"/fio-3.33/*.txt "$FSC_CORPUS"/fio-2.*/*.txt; do
    [ "$(stat -c %s plain.txt)" -gt 300000 ] && break
    cat "$f" >> plain.txt
done
# GitHub Actions' stamp, an ISO date with a space, and a clock in brackets
python3 - <<'PY'
lines = open("plain.txt").read().split("\n")
stamps = [lambda i: "2024-05-01T12:%02d:%02d.%07dZ " % (i // 60 % 60, i % 60, i % 10000000),
          lambda i: "2024-05-01 12:%02d:%02d " % (i // 60 % 60, i % 60),
          lambda i: "[12:%02d:%02d] " % (i // 60 % 60, i % 60)]
for k, stamp in enumerate(stamps):
    with open("stamped%d.txt" % k, "w") as f:
        f.write("\n".join(stamp(i) + l for i, l in enumerate(lines)))
PY
runs plain.txt 1 > want.txt
[ "$(wc -l < want.txt)" -gt 50 ] || fail "too few runs in plain.txt"
for k in 0 1 2; do
    f=stamped$k.txt
    read -r n max < <(pieces "$f")
    [ "$n" -ge 10 ] || fail "$f went in $n pieces"
    [ "$max" -le 40000 ] || fail "$f: a piece of $max bytes (a loose cut, not between runs)"
    for j in 1 2; do
        runs "$f" "$j" > got.txt
        cmp -s want.txt got.txt || { diff want.txt got.txt | head -5 >&2; fail "$f at -j $j: its runs differ from the log's without timestamps"; }
    done
    runs - 2 < "$f" > got_in.txt
    cmp -s want.txt got_in.txt || fail "$f from stdin: its runs differ from the log's without timestamps"
done
echo "ok: $(wc -l < want.txt) runs, the same with timestamps in pieces"
