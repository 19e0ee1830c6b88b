#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Replies that quote fio's reports ("> ", ">> ", ">" on a quoted blank line), in a text
# read in pieces: a piece may end before a quoted job definition that follows a
# quoted disk or group line of the same depth, as it may before an unquoted one
# (piece_cut, src/input/pieces.c). Without that, such a text had no run boundary the
# cutter knew, and went in pieces four steps long (a 25 MB quoted mail: one piece of
# 17 MB, 87 MB charged). The runs in pieces are byte for byte those of the whole text.
# Pieces of 64 KiB (so 256 KiB before a cut anywhere) keep the texts short.
. "$(dirname "$0")/lib.sh"

python3 - "$FSC_CORPUS" replies.mbox deep.txt <<'PY'
import glob, os, sys
corpus, out, deep = sys.argv[1:4]
runs = [open(f).read().rstrip("\n") for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33", "[a-f]_*.txt")))]
runs += [open(f).read().rstrip("\n") for f in sorted(glob.glob(os.path.join(corpus, "fio-2.21", "[a-f]_*.txt")))]
def quote(text, depth, nested=False):
    # ">> line" or "> > line"; a blank line quoted as ">>"
    mark = "> " * depth if nested else ">" * depth + " "
    return "\n".join(mark + line if line else ">" * depth for line in text.split("\n"))
mails = []
for k in range(60):
    depth = 1 + (k % 3 == 2)
    # several reports quoted back to back: a quoted disk line, then a quoted job line
    quoted = quote("\n".join(runs[(k + i) % len(runs)] for i in range(3)), depth, k % 4 == 3)
    mails.append("From u%d@example.org Mon Nov  2 10:%02d:00 2026\nFrom: u%d <u%d@example.org>\n"
                 "Subject: Re: fio results %d\n\nOn Sunday, someone wrote:\n%s\n\nThe second "
                 "run looks slow to me.\n" % (k, k % 60, k, k, k, quoted))
open(out, "w").write("\n".join(mails))
# one mail quoting at two depths in turn, no unquoted text between its reports
open(deep, "w").write("\n".join(quote(runs[i % len(runs)], 1 + i % 2) for i in range(200)) + "\n")
PY
for f in replies.mbox deep.txt; do
    cut_between_runs "$f" 100
done
echo "ok: quoted reports cut between runs"
