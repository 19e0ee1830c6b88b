#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A fio JSON document cut off (a crash, a truncated paste) in a text over 24 MiB: a
# piece may not end inside a JSON document, and one whose braces never balance went
# on to the end of the file, so the rest of the file was one piece (60 MB of damaged
# logs took 230 MB and 4.5 s; 120 MB took 520 MB). The parser stops reading such a
# document at its first line that no JSON holds (fsc_json_repair), and pieces may
# now begin after that line (src/input/pieces.c open_doc_end). The output is the
# whole text's, in 4 KiB pieces, for each shape below; those whose document stops
# are read in many pieces.
. "$(dirname "$0")/lib.sh"

cat "$FSC_CORPUS"/fio-3.33/*.txt > all.txt # 20 runs of fio 3.33 text
oracle=$FSC_CORPUS/fio-3.33-oracle/grouped-3j.normal+json.txt
sed -n '/^{/,$p' "$oracle" | awk 'NR <= 60' > cut.json # fio's JSON, cut off inside "jobs"

# shape name, the line(s) between the cut JSON and the text, whether it stops there
check() {
    local name=$1 between=$2 stops=$3
    { cat cut.json; printf '%b' "$between"; cat all.txt all.txt; cat cut.json; cat all.txt; } > "$name.txt"
    whole_and_pieces "$name.txt"
    if $stops; then
        [ "$PIECES" -gt 20 ] || fail "$name: $PIECES pieces (the cut-off document held the rest of the file)"
    fi
}
# fio's text right after it: the document stops at its first line
check text "" true
[ "$(manifest < whole.jsonl)" = "text.txt|None|ok|62|None" ] || fail "text: $(manifest < whole.jsonl)"
check blank '\n\n' true                         # blank lines, then text
check indented '  \n    fio-3.33\n' true         # text after spaces
check literal '  true,\n  null\n' true            # JSON values first
# what normalizing may turn into JSON: the document may go on (the same output)
check progress 'Jobs: 1 (f=1): [R(1)][100.0%][eta 00m:00s]\n' false
check cr 'abc\r  "x" : 1,\n' false
check quoted '> "x" : 1,\n' false
check flowed '  "x" : 1, \nabc\n' false

# a text of many such documents stays linear and in pieces
for i in $(seq 1 300); do cat cut.json; echo 'randread: (g=0): rw=randread'; done > many.txt
cat all.txt >> many.txt
whole_and_pieces many.txt
[ "$PIECES" -gt 20 ] || fail "many cut-off documents: not in pieces"
echo ok
