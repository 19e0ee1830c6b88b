#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A piece whose workers read their own pieces (-j 2) may come out empty: the piece
# before it sees a fio JSON document cut off near its start still open at its end
# (the text after it is more JSON) and reads on past the whole next piece
# (fsc_piece_settle). That empty piece gave nothing to the file's relay, so the
# headings in force ("## Box B" above two JSON documents) were lost for every piece
# after it, at -j 2 only. It now hands on what it took (fsc_item_relay_pass). The
# output must be the whole text's at every piece size, at -j 1 and -j 2.
. "$(dirname "$0")/lib.sh"

oracle=$FSC_CORPUS/fio-3.33-oracle/grouped-3j.normal+json.txt
sed -n '/^{/,$p' "$oracle" | awk 'NR <= 60' > cut.json # fio's JSON, cut off inside "jobs"
for box in A B C D; do
    head -4 "$FSC_CORPUS"/fio-2.21/a_randread_psync.txt # a preamble, then the cut-off document
    cat cut.json
    cat "$FSC_CORPUS"/fio-3.0/g_json.json "$FSC_CORPUS"/fio-3.33/g_json_group.json "$FSC_CORPUS"/fio-2.21/g_json.json
    cat "$FSC_CORPUS"/fio-3.33/c_randrw70_libaio_4jobs_group.txt
    printf '\n## Box %s\n\n' "$box"
    cat "$FSC_CORPUS"/fio-3.0/g_json.json "$FSC_CORPUS"/fio-3.33/g_json.json
    cat "$FSC_CORPUS"/fio-3.33/a_randread_psync.txt
done > boxes.txt

"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 boxes.txt > whole.jsonl
python3 - whole.jsonl <<'PY' || fail "boxes.txt read whole: not the runs under the headings expected"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
boxed = [r for r in runs if r["context"] and r["context"][0].startswith("Box ")]
assert len(runs) >= 25 and len(boxed) >= 20, (len(runs), len(boxed))
PY
pieces_read_as_whole boxes.txt 8192 12000 16384 20000 24576 32768
echo ok
