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

# The notes of a file of no run (what it held instead) are the first 20 and how many
# more: 40 MB of grep fragments wrote 8.6 MB of them into the manifest (and the
# report). In pieces, the file's first notes, not the last piece's; a file with runs
# has none (a last piece of no run gave its notes to an "ok" entry).
frag=$FSC_SOURCE_DIR/tests/tolerance/cases/grep_bare_fragments.txt
for _ in $(seq 700); do echo; cat "$frag"; done > notes.txt
whole_and_pieces_notes() {
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$1" | manifest > whole.txt
    FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 "$1" | manifest > pieces.txt
}
whole_and_pieces_notes notes.txt
python3 - <<'PY' || fail "notes of no run: $(head -c 300 whole.txt) / $(head -c 300 pieces.txt)"
import sys
w, p = open("whole.txt").read().split("\n"), open("pieces.txt").read().split("\n")
assert w[0].endswith("|no-runs|0|line 4: fio's preamble without results"), w[0]
assert len(w) == 22 and w[20].startswith("and ") and w[20].endswith(" more notes"), (len(w), w[20])
assert p[:20] == w[:20] and p[20].endswith(" more notes"), p[:21]
PY
{ cat "$FSC_CORPUS"/fio-3.33/*.txt "$FSC_CORPUS"/fio-3.33/*.txt "$FSC_CORPUS"/fio-3.33/*.txt; cat notes.txt; } > tail.txt
whole_and_pieces_notes tail.txt
[ "$(cat pieces.txt)" = "tail.txt|None|ok|60|None" ] || fail "runs, then no run in the last pieces: $(head -c 300 pieces.txt)"
echo "ok: the notes of a file of no run, 20 and how many more, the same first ones in pieces"

