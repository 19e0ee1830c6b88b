#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the parser found but could not read (a fio JSON document beyond repair) is
# told by the run it stands above, or by the last run when none follows: by its own
# line, next to what it speaks of, and the same whether the text is read whole or in
# pieces (before, every such note went to the first run of the text or of its piece;
# until session 36, in pieces, a note after a piece's last run went to that run).
. "$(dirname "$0")/lib.sh"
RUN="$FSC_CORPUS/fio-3.33/a_randread_psync.txt"
[ "$(wc -l < "$RUN")" = 32 ] || fail "the run's text changed: update the line numbers below"

broken() { # a fio JSON document cut off inside a value: nothing of it can be read
    printf '{\n  "fio version" : "fio-3.33",\n  "timestamp" : 1,\n  "jobs" : [\n    {\n'
    printf '      "jobname" : "x",\n      "read" : { "io_bytes" : @@@ }\n\n'
}
{ cat "$RUN"; echo; broken; echo "Second run:"; echo; cat "$RUN"; echo; broken; } > notes.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none notes.txt > out.jsonl
python3 - out.jsonl <<'PY' || fail "notes.txt: the notes are not on the runs next to them"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
got = [(r["source"]["first_line"], r["source"]["last_line"], [w["line"] for w in r["warnings"]]) for r in runs]
msg = "a fio JSON document that cannot be read (not a valid JSON object)"
# the first document is on the run below it; the last, after every run, on the last
assert got == [(1, 32, []), (44, 75, [34, 77])], got
assert all(w["message"] == msg for r in runs for w in r["warnings"])
PY

# many of them, read whole and in pieces
for i in $(seq 1 150); do cat "$RUN"; echo; broken; echo "Run $i:"; echo; done > many.txt
cat "$RUN" >> many.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 many.txt > whole.jsonl
python3 - whole.jsonl <<'PY' || fail "many.txt: not one note a run"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
assert len(runs) == 151, len(runs)
assert not runs[0]["warnings"], runs[0]["warnings"]
for a, b in zip(runs, runs[1:]):  # each note lies between the run above and the run it is on
    (w,) = b["warnings"]
    assert a["source"]["last_line"] < w["line"] < b["source"]["first_line"], (a["id"], b["id"], w)
PY
# In pieces, a note is on the run below it too, also when a piece ends between the
# two: the notes below a piece's last run wait for the next piece's first run (and
# those after the file's last run go to that run, which waits for the file's end).
for piece in 8192 16384; do
    for j in 1 2; do
        FIOSCOPE_PIECE_BYTES=$piece FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" \
            many.txt > pieces.jsonl 2> pieces.err
        [ "$(grep -c ": memory: " pieces.err)" -ge 10 ] || fail "many.txt: few pieces"
        cmp -s whole.jsonl pieces.jsonl || fail "many.txt in pieces of $piece bytes (-j $j): not as whole"
    done
done
# the last run's piece is not the file's last: what follows it, pieces without runs
# (a broken document and 3000 lines of prose), is told by it as whole
{ cat "$RUN"; echo; broken; for i in $(seq 3000); do echo "a line of prose after the runs, number $i"; done; } > tail.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 tail.txt > whole.jsonl
FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 tail.txt > pieces.jsonl
cmp -s whole.jsonl pieces.jsonl || fail "tail.txt in pieces: not as whole"
grep -q '"line":34,"message":"a fio JSON document that cannot be read' whole.jsonl || fail "tail.txt: the note is not the run's"
echo "notes on the runs next to them, whole and in pieces"
