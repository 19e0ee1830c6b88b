#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The notes of the two passes (find_structured's: a fio JSON document beyond repair;
# the normal parser's: fio's preamble without results) are told in line order. They
# were told pass by pass, the JSON document's first, so a preamble right above such a
# document came second read whole and first in pieces, where a cut between the two
# puts the preamble's note in the piece before (a file with no run: the manifest's
# error; else the warnings of the run below). The output must be the whole text's at
# every piece size, at -j 1 and -j 2.
. "$(dirname "$0")/lib.sh"

preamble() { head -4 "$FSC_CORPUS"/fio-2.21/a_randread_psync.txt; } # job definition .. Laying out
broken() { sed 's/"elapsed" : 3,/"elapsed" 3,/' "$FSC_CORPUS"/fio-2.15/g_jsonplus.json; } # no JSON object
RUN=$FSC_CORPUS/fio-3.33/a_randread_psync.txt

{ preamble; broken; } > none.txt
{ for i in 1 2 3; do cat "$RUN"; preamble; broken; done; cat "$RUN"; } > runs.txt

"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 none.txt > whole.jsonl
[ "$(manifest < whole.jsonl)" = "none.txt|None|no-runs|0|line 1: fio's preamble without results
line 5: a fio JSON document that cannot be read (not a valid JSON object)" ] ||
    fail "none.txt read whole: $(manifest < whole.jsonl)"
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 runs.txt > whole.jsonl
python3 - whole.jsonl <<'PY' || fail "runs.txt read whole: the notes are not in line order"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
lines = [[w["line"] for w in r["warnings"]] for r in runs]
assert len(runs) == 4 and lines[0] == [] and all(len(l) == 2 and l == sorted(l) for l in lines[1:]), lines
PY

for f in none.txt runs.txt; do
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$f" > whole.jsonl
    pieces_read_as_whole "$f" 4096 6000 8192 10000 16384
done
echo ok
