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
# part between such places, so that both give the same runs in the same order. Hosts
# named alpha and beta, one's runs after the other's, were cut only at 8 steps and
# anywhere (a job definition under another host's disk line had another prefix, not
# a run's start); a tab after the name (GNU parallel --tag, "h1:<TAB>") was no host's
# name to the cutter (the regrouping reads it after normalizing made a space of it).
# FIOSCOPE_PIECE_BYTES=65536 makes the texts huge (pieces of 64 KiB, 8 steps: 512 KiB).
. "$(dirname "$0")/lib.sh"

src=${FSC_SOURCE_DIR:?}
python3 "$src/tests/input/kind_texts.py" "$src" "$FSC_CORPUS" 480000 \
    words gitlab github script typeset shipper csv_export confluence hard_cut
python3 - "$src/tests/input" "$FSC_CORPUS" <<'PY'
import sys
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[1])
from kind_texts import docs_of
docs = docs_of(sys.argv[2])
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
# hosts whose names differ in more than digits: alpha's runs then beta's (pdsh over a
# loop); GNU parallel --tag's "name<TAB>", a line of each in turn; "name:<TAB>", in
# chunks of 1 to 12 lines
def hosts(path, first, second, mode):
    parts, size, k = [], 0, 0
    while size < 480000:
        a = [first + l for l in docs[k % len(docs)]]
        b = [second + l for l in docs[(k + 3) % len(docs)]]
        if mode == "seq":
            mixed = a + b
        elif mode == "line":
            mixed = [l for pair in zip(a, b) for l in pair] + a[len(b):] + b[len(a):]
        else:
            mixed, i, j, c = [], 0, 0, 0
            while i < len(a) or j < len(b):
                c = c % 12 + 1
                mixed += a[i:i + c] + b[j:j + 13 - c]
                i, j = i + c, j + 13 - c
        parts.append(("\n".join(mixed) + "\n").encode("utf-8", "surrogateescape"))
        size += len(parts[-1])
        k += 2
    open(path, "wb").write(b"".join(parts))
hosts("pdsh_names.txt", "alpha: ", "beta: ", "seq")
hosts("parallel_tag.txt", "gpu-a\t", "db1.example.com\t", "line")
hosts("colon_tab.txt", "h1:\t", "h2:\t", "chunk")
PY

total=0
for kind in words gitlab github script typeset shipper csv_export confluence hard_cut pdsh pdsh_names parallel_tag \
    colon_tab; do
    same_in_64k_pieces "$kind.txt" 50
    # the runs of a CSV export, of Confluence's markup and of a log line's literal cut
    # at 80 columns (whose "\n'" must not be taken for a next section) are not seen:
    # one piece (below 8 steps), as read whole
    if [ "$kind" != csv_export ] && [ "$kind" != confluence ] && [ "$kind" != hard_cut ]; then
        [ "$PIECES" -ge 6 ] || fail "$kind.txt: $PIECES pieces (not cut between its runs)"
    fi
    echo "$kind: $RUNS runs, $PIECES pieces"
    total=$((total + RUNS))
done
echo "ok: 13 kinds of huge CI logs and exports, $total runs, the same in pieces as read whole"
