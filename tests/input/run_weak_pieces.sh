#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Huge texts whose runs the cutter does not see end, in pieces, give the runs of the
# text read whole. A CSV export's rows, a frame's borders, a forum's or Jira's markup
# glued to the first and last lines, a Python list of a log's lines, a log line cut at
# 80 columns: no boundary comes, and after 8 steps (32 MiB; here 512 KiB) a piece must
# be cut anyway. It was cut at the last line end: inside a run (its results in one
# piece, its disk stats or percentiles in the next) or between a heading and its run.
# Now it is cut before the last run's first job definition (the line above none),
# with the heading right above it ("lines of job.log:"), and never under a JSON
# document's line (one cut off there ends, as the worker reading the piece sees it,
# at the piece's end).
# FIOSCOPE_PIECE_BYTES=65536 makes the texts huge (8 steps: 512 KiB).
. "$(dirname "$0")/lib.sh"

python3 "${FSC_SOURCE_DIR:?}/tests/input/kind_texts.py" "$FSC_SOURCE_DIR" "$FSC_CORPUS" 1100000 \
    csv_export frame_ascii forum jira py_lines hard_cut

total=0
for kind in csv_export frame_ascii forum jira py_lines hard_cut; do
    same_in_64k_pieces "$kind.txt" 150
    [ "$PIECES" -ge 2 ] || fail "$kind.txt: $PIECES pieces (not cut at 8 steps)"
    echo "$kind: $RUNS runs, $PIECES pieces"
    total=$((total + RUNS))
done
echo "ok: 6 kinds of huge texts whose runs are not seen, $total runs, the same in pieces as read whole"
