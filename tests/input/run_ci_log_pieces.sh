#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Huge CI logs and log exports, in pieces, give the runs of the text read whole.
# A job's runs one after another in a GitLab trace, a GitHub Actions log, a script(1)
# recording or a highlighter's colours have no blank line between the disk stats and
# the next step ("section_end:...", "##[group]Run fio", a prompt): the cutter found no
# boundary, and after four steps cut at a blank line inside the next run's preamble
# (its job options and fio version left in the piece before) or, with a timestamp on
# every line, at any line end (disk stats cut off). A shipper's JSON lines were cut
# before a line the read had cut short. A CSV export's runs it cannot see at all were
# cut anywhere after four steps. Now it cuts right under a whole disk line when two
# lines of text follow, and a cut that may fall inside a run waits for 8 steps.
# pdsh's hosts, a line of each in turn: a cut only where every host is between runs
# (prefix.c fsc_hosts_cut_ok), and the whole text put together host by host part by
# part between such places, so that both give the same runs in the same order.
# FIOSCOPE_PIECE_BYTES=65536 makes the texts huge (pieces of 64 KiB, 8 steps: 512 KiB).
. "$(dirname "$0")/lib.sh"

src=${FSC_SOURCE_DIR:?}
python3 - "$src/tests/damage/terminal.py" "$FSC_CORPUS" <<'PY'
import os, sys
terminal, corpus = sys.argv[1], sys.argv[2]
code = open(terminal).read()
code = code[:code.index("texts = []")]  # the kinds, not the test
sys.argv = ["terminal.py", "fioscope", corpus, "."]
g = {"__name__": "kinds"}
exec(compile(code, terminal, "exec"), g)
docs = []
for d in ("fio-3.33", "fio-2.21", "fio-3.13"):
    for f in sorted(os.listdir(os.path.join(corpus, d))):
        if f.endswith(".txt") and not f.startswith("g_"):
            lines = open(os.path.join(corpus, d, f), encoding="utf-8", errors="surrogateescape").read().split("\n")
            while lines and lines[-1] == "":
                lines.pop()
            docs.append(lines)
for name in ("words", "gitlab", "github", "script", "typeset", "shipper", "csv_export", "confluence", "hard_cut"):
    parts, size, k = [], 0, 0
    while size < 480000:
        d = g["kinds"][name](docs[k % len(docs)])
        b = d if isinstance(d, bytes) else ("\n".join(d) + "\n").encode("utf-8", "surrogateescape")
        parts.append(b)
        size += len(b)
        k += 1
    open(name + ".txt", "wb").write(b"".join(parts))
# pdsh over two hosts, a line of each in turn, each host's runs one after another
parts, size, k = [], 0, 0
while size < 480000:
    a = ["node1: " + l for l in docs[k % len(docs)]]
    b = ["node2: " + l for l in docs[(k + 1) % len(docs)]]
    mixed = [l for pair in zip(a, b) for l in pair] + a[len(b):] + b[len(a):]
    parts.append(("\n".join(mixed) + "\n").encode("utf-8", "surrogateescape"))
    size += len(parts[-1])
    k += 2
open("pdsh.txt", "wb").write(b"".join(parts))
PY

total=0
for kind in words gitlab github script typeset shipper csv_export confluence hard_cut pdsh; do
    f=$kind.txt
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$f" > whole.jsonl
    runs=$(grep -c '^{"id":' whole.jsonl || true)
    [ "$runs" -ge 50 ] || fail "$f: $runs runs read whole"
    for j in 1 2; do
        FIOSCOPE_PIECE_BYTES=65536 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" "$f" \
            > pieces.jsonl 2> pieces.err
        cmp -s whole.jsonl pieces.jsonl ||
            fail "$f at -j $j: in pieces, not as read whole: $(diff whole.jsonl pieces.jsonl | head -4 | cut -c1-300)"
    done
    n=$(grep -c ': memory: ' pieces.err || true)
    # the runs of a CSV export, of Confluence's markup and of a log line's literal cut
    # at 80 columns (whose "\n'" must not be taken for a next section) are not seen:
    # one piece (below 8 steps), as read whole
    if [ "$kind" != csv_export ] && [ "$kind" != confluence ] && [ "$kind" != hard_cut ]; then
        [ "$n" -ge 6 ] || fail "$f: $n pieces (not cut between its runs)"
    fi
    echo "$kind: $runs runs, $n pieces"
    total=$((total + runs))
done
echo "ok: 10 kinds of huge CI logs and exports, $total runs, the same in pieces as read whole"
