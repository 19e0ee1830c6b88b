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
echo "ok: prefixed reports cut between runs"
