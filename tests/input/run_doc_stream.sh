#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `parse` (one JSON document) renders its runs as they are parsed, like --jsonl, and
# keeps their bytes (in memory, past 8 MiB in a temporary file in $TMPDIR) until the
# inputs, which the document lists first, are known (src/cli/cmd_parse.c). The
# document must be the one the runs kept whole give, byte for byte.
. "$(dirname "$0")/lib.sh"

for i in 1 2 3 4; do
    cat "$FSC_CORPUS"/fio-3.33/*.txt "$FSC_CORPUS"/fio-2.1.10/*.txt
done > big.txt
cp "$FSC_CORPUS"/fio-3.33/a_randread_psync.txt one.txt
echo "no fio here" > none.txt
"$FIOSCOPE" parse -q --fail-on=none -j 1 big.txt one.txt none.txt > mem.json
# the temporary file from the first byte on, runs rendered on workers, pieces
for j in 1 2; do
    FIOSCOPE_SPOOL_BYTES=0 TMPDIR="$T" "$FIOSCOPE" parse -q --fail-on=none -j $j big.txt one.txt none.txt > file.json
    cmp -s mem.json file.json || fail "-j $j: the temporary file changes the document"
    FIOSCOPE_SPOOL_BYTES=0 FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse -q --fail-on=none -j $j big.txt one.txt none.txt > pieces.json
    cmp -s mem.json pieces.json || fail "-j $j: pieces change the document"
done
# the runs kept whole (--where keeps them: it may compare runs) give the same bytes
"$FIOSCOPE" parse -q --fail-on=none --where 'iops>=0' one.txt > kept.json
"$FIOSCOPE" parse -q --fail-on=none one.txt > streamed.json
cmp -s kept.json streamed.json || fail "streamed and kept documents differ: $(diff kept.json streamed.json | head -5)"
# the document holds what JSON Lines holds, in the same order
"$FIOSCOPE" parse -q --fail-on=none --jsonl big.txt one.txt none.txt > lines.jsonl
python3 - mem.json lines.jsonl <<'PY' || fail "document and JSON Lines disagree"
import json, sys
doc = json.load(open(sys.argv[1]))
lines = [json.loads(l) for l in open(sys.argv[2])]
assert doc["runs"] == [l for l in lines if "input" not in l]
assert doc["inputs"] == [l["input"] for l in lines if "input" in l]
assert len(doc["runs"]) > 100 and doc["inputs"][2]["status"] == "no-runs"
PY
# no run at all: an empty list, as before
"$FIOSCOPE" parse -q --fail-on=none none.txt | python3 -c 'import json,sys; assert json.load(sys.stdin)["runs"] == []' ||
    fail "empty runs"
# no temporary file to be had: a clear error, no output file; small output needs none
if FIOSCOPE_SPOOL_BYTES=0 TMPDIR="$T/missing" "$FIOSCOPE" parse -q -o out.json one.txt 2> err.txt; then
    fail "no temporary file, yet exit 0"
fi
grep -q "temporary file in $T/missing.*--jsonl" err.txt || fail "message: $(cat err.txt)"
[ ! -e out.json ] || fail "an output file was left"
TMPDIR="$T/missing" "$FIOSCOPE" parse -q one.txt > small.json || fail "small output: exit $?"
cmp -s small.json streamed.json || fail "small output differs"
! ls "$T" | grep -q fioscope-parse || fail "a temporary file was left in \$TMPDIR"
echo "ok: parse's document streamed"
