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


# What is no run between runs goes with the run below it, in pieces as whole. Disk
# stats whose results are not in the text, after a run's own: the cut comes above
# them (disks_after_disks), not above the next job definition, which left their note
# with the last run of the piece before. Attempts stopped before their results, one
# after another: each is told (the second took the note of the first with it when it
# was left out, and of 6,000 only the last was told).
cases=$FSC_SOURCE_DIR/tests/tolerance/cases
for _ in $(seq 1400); do cat "$cases/segment_disk_leftover.txt"; echo; done > leftover.txt
same_in_64k_pieces leftover.txt 1400
python3 - <<'PY' || fail "leftover disk stats: each run below them carries their note"
import json
runs = [json.loads(l) for l in open("whole.jsonl") if l.startswith('{"id":')]
notes = [[w["message"] for w in r["warnings"] if w["message"].startswith("Disk stats of a run")] for r in runs]
assert all(len(n) == 1 for n in notes), [n for n in notes if len(n) != 1][:2]
PY
echo "ok: leftover disk stats of 1400 runs, the note with the run below, the same in $PIECES pieces"
{ cat "$cases/segment_interrupted_only.txt"; echo; cat "$cases/segment_interrupted_only.txt"; echo
  cat "$FSC_CORPUS/fio-3.33/a_randread_psync.txt"; } > stopped.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none stopped.txt > whole.jsonl
python3 - <<'PY' || fail "two stopped attempts, then a run: $(head -c 600 whole.jsonl)"
import json
run = json.loads(open("whole.jsonl").readline())
left = [w["line"] for w in run["warnings"] if w["message"].startswith("a fio run without results")]
assert left == [1, 11], left
PY
for _ in $(seq 6000); do cat "$cases/segment_interrupted_only.txt"; echo; done > stopped.txt
whole_and_pieces_notes stopped.txt
python3 - <<'PY' || fail "stopped attempts only: $(head -c 300 whole.txt) / $(head -c 300 pieces.txt)"
w, p = open("whole.txt").read().split("\n"), open("pieces.txt").read().split("\n")
assert w[0].endswith("|no-runs|0|line 1: a fio run without results (lines 1-9; fio: terminating on signal 2): left out"), w[0]
assert w[1].startswith("line 11: ") and w[20] == "and 5980 more notes", w[:2] + w[19:21]
assert p == w, p[:2]
PY
echo "ok: attempts stopped before their results, each told, the same in pieces"
