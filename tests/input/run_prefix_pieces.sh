#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fio's reports with a prefix on every line ("# " of a shell comment or a commit
# message, "| " of a wiki, "// ", a host's "node1: ", a code block's indentation, nl's
# line numbers), in a text read in pieces: a piece may end before a job definition
# after the same prefix as the disk or group line above it (piece_cut, starts_run in
# src/input/pieces.c). Before, only fio's own lines, a CI stamp or "> " quotes were
# known there: such a text went in pieces cut anywhere, and a run cut in two (3 runs
# read as 4, a job's cpu, depths and issued lines in a run of their own). The runs in
# pieces are byte for byte those of the whole text.
. "$(dirname "$0")/lib.sh"

python3 - "$FSC_CORPUS" <<'PY'
import glob, os, sys
corpus = sys.argv[1]
runs = [open(f).read().rstrip("\n") for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33", "[a-f]_*.txt")))]
runs += [open(f).read().rstrip("\n") for f in sorted(glob.glob(os.path.join(corpus, "fio-2.21", "[a-f]_*.txt")))]
prefixes = {"hash": ("# ", "#"), "bar": ("| ", "|"), "slashes": ("// ", "//"), "host": ("node1: ", "node1:"),
            "indent": ("    ", "")}
for name, (mark, blank) in prefixes.items():
    text = "\n".join(runs[i % len(runs)] for i in range(200))
    open(name + ".txt", "w").write("\n".join(mark + l if l else blank for l in text.split("\n")) + "\n")
text = "\n".join(runs[i % len(runs)] for i in range(200)).split("\n")
open("nl.txt", "w").write("\n".join("%6d  %s" % (i + 1, l) for i, l in enumerate(text)) + "\n")
PY
for f in hash.txt bar.txt slashes.txt host.txt indent.txt nl.txt; do
    cut_between_runs "$f" 200
    [ "$(grep -c '^{"id":' "$f.whole")" = 200 ] || fail "$f: not 200 runs whole"
done
# reports pasted without their job definitions, each under its fio command (an
# article's), a host's name or a CI stamp on every line: no job definition tells a
# run's start, so the pieces end after the blank lines under a report's disk stats,
# blank but for the prefix (line_cut), and never between an md array's line and its
# members' (section_under_disks read "node1:   nvme0n1: ios=..." as text): before,
# a cut fell inside a run, and its disk stats or its cpu line went to a run of their own
python3 - "$FSC_CORPUS" <<'PY'
import glob, os, sys
corpus = sys.argv[1]
runs = []
for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33", "[a-f]_*.txt"))):
    lines = [l for l in open(f).read().rstrip("\n").split("\n") if ": (g=" not in l and l != "..."]
    # an md array's disk stats: its line, then its members' (as seeds/002's)
    lines = ["    md0: ios=0/2305321, merge=0/0, ticks=0/0, in_queue=0, util=0.00%, aggrios=0/462222, "
             "aggrmerge=0/7, aggrticks=0/809132, aggrin_queue=763212, aggrutil=75.31%\n"
             "  nvme0n1: ios=0/462225, merge=0/6, ticks=0/723764, in_queue=678840, util=74.29%\n"
             "  nvme1n1: ios=0/462220, merge=0/6, ticks=0/867552, in_queue=821964, util=78.06%"
             if l.startswith("  vda: ios=") else l for l in lines]
    runs.append("$ fio --name=%s --size=1g\n" % os.path.basename(f)[:-4] + "\n".join(lines))
text = "\n\n".join(runs[i % len(runs)] for i in range(300)).split("\n")
text = "\n".join(text).split("\n")
open("bare_host.txt", "w").write("\n".join("node1: " + l for l in text) + "\n")
open("bare_stamp.txt", "w").write(
    "\n".join("2026-12-07T10:%02d:%02d.%06dZ %s" % (i // 3600 % 60, i // 60 % 60, i, l) for i, l in enumerate(text)) + "\n")
PY
# (a piece then ends only after four steps without a run's start: a few pieces)
for f in bare_host.txt bare_stamp.txt; do
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$f" > "$f.whole"
    [ "$(grep -c '^{"id":' "$f.whole")" -ge 300 ] || fail "$f: fewer than 300 runs whole"
    for piece in 16384 65536; do
        FIOSCOPE_PIECE_BYTES=$piece FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 "$f" \
            > "$f.pieces" 2> "$f.err"
        cmp -s "$f.whole" "$f.pieces" ||
            fail "$f: in pieces of $piece: $(diff <(manifest < "$f.whole") <(manifest < "$f.pieces") | head -5)"
        [ "$(grep -c ': memory: ' "$f.err" || true)" -ge 4 ] || fail "$f: fewer than 4 pieces of $piece bytes"
    done
done
echo "ok: prefixed reports cut between runs"
