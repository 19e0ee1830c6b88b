#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A text that holds JSON goes in pieces from json_piece_min (8 MiB by default), not
# from the 24 MiB of other text (read_fd, read_stream, archive members; src/input/):
# read whole, its JSON runs waited in memory for the end of the text (fioscope's own
# --jsonl of 22 MB, read again, peaked at 143 MB). Its runs in pieces are those of the
# whole text: JSON Lines with fioscope's manifest lines between the runs, fio JSON
# below a line of text, through a file, a pipe and a .tar.gz. A text without JSON
# stays whole up to piece_min. Pieces of 64 KiB (piece_min 256 KiB) and a
# json_piece_min of 100,000 bytes keep the texts small for the suite under ASan.
. "$(dirname "$0")/lib.sh"
export FIOSCOPE_PIECE_BYTES=65536 FIOSCOPE_JSON_PIECE_MIN=100000
WHOLE=1000000000 # a json_piece_min no text here reaches: read whole

# fioscope's own JSON Lines: runs, and a manifest line after each input's runs
"$FIOSCOPE" parse --jsonl -q --fail-on=none "$FSC_CORPUS"/fio-3.33 "$FSC_CORPUS"/fio-2.21 \
    "$FSC_CORPUS"/fio-3.13 > all.jsonl
head -c 240000 all.jsonl > part.jsonl
sed '$d' part.jsonl > runs.jsonl # whole lines, under piece_min
[ "$(wc -c < runs.jsonl)" -gt 150000 ] || fail "runs.jsonl: only $(wc -c < runs.jsonl) bytes"
# fio JSON documents below a line of text (not plain fio output: not cut as that is)
{ echo "fio: this text came first"; cat "$FSC_CORPUS"/fio-3.*/*.json "$FSC_CORPUS"/fio-2.*/*.json; } > docs.all
head -c 250000 docs.all > docs.txt
echo '}' >> docs.txt # the last document may be cut off: read as such, whole or not
# fio's normal text below a heading (not plain either), and no JSON in it
{ printf '# results\n\n'; for _ in 1 2 3 4 5 6 7 8; do cat "$FSC_CORPUS"/fio-3.33/[a-f]_*.txt; done; } > text.all
head -c 250000 text.all > text.txt

pieces() { # documents the parse of $1 went in, at json_piece_min $2
    FIOSCOPE_JSON_PIECE_MIN=$2 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$1" \
        2>&1 > /dev/null | grep -c ': memory: ' || true
}
same() { # $1 file, $2 -j: its runs in pieces are its runs whole
    FIOSCOPE_JSON_PIECE_MIN=$WHOLE "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$2" "$1" > "$1.whole"
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$2" "$1" > "$1.pieces"
    cmp -s "$1.whole" "$1.pieces" ||
        fail "$1 -j $2: in pieces: $(diff <(manifest < "$1.whole") <(manifest < "$1.pieces"))"
}
for f in runs.jsonl docs.txt; do
    [ "$(pieces "$f" "$WHOLE")" = 1 ] || fail "$f: not whole at json_piece_min $WHOLE"
    [ "$(pieces "$f" 100000)" -gt 2 ] || fail "$f: not in pieces: $(pieces "$f" 100000)"
    same "$f" 1
    same "$f" 2
done
[ "$(pieces text.txt 100000)" = 1 ] || fail "text.txt (no JSON): in pieces: $(pieces text.txt 100000)"

# the runs are all there, and fioscope's manifest lines are no "fio JSON document
# that cannot be read": a JSON object is judged fio's by its own lines, not by the
# run on the line after it (which a piece may not have)
want=$(grep -c '^{"id":' runs.jsonl)
r=$(manifest < runs.jsonl.pieces)
[ "$r" = "runs.jsonl|None|ok|$want|None" ] || fail "runs.jsonl: $r (want $want runs)"
! grep -q 'cannot be read' runs.jsonl.pieces runs.jsonl.whole || fail "runs.jsonl: a manifest line was warned of"

# through a pipe (read_stream) and as a member of a .tar.gz (libarchive, read as it
# is inflated): the runs of the file, the path aside
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 - < runs.jsonl > pipe.jsonl
FIOSCOPE_JSON_PIECE_MIN=$WHOLE "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 - < runs.jsonl > pipe.whole
cmp -s pipe.jsonl pipe.whole || fail "runs.jsonl through a pipe: in pieces, other runs"
got=$(grep -c '^{"id":' pipe.jsonl)
[ "$got" = "$want" ] || fail "runs.jsonl through a pipe: $got runs, not $want"
tar czf runs.tar.gz runs.jsonl docs.txt
FIOSCOPE_JSON_PIECE_MIN=$WHOLE "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 runs.tar.gz > tar.whole
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 runs.tar.gz > tar.pieces
cmp -s tar.whole tar.pieces || fail "runs.tar.gz: in pieces: $(diff <(manifest < tar.whole) <(manifest < tar.pieces))"
n=$(FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 runs.tar.gz 2>&1 > /dev/null |
    grep -c ': memory: ' || true)
[ "$n" -gt 4 ] || fail "runs.tar.gz: its members not in pieces ($n documents)"

# a document of JSON objects back to back passes its runs on as it finds them, not all
# at the end (find_structured's early delivery): 5,000 small fio-like objects (225 KB)
# were charged 33 MB at once, about 6.5 KB a job; now some 5 MB. Whole (no pieces), at
# -j 1; the same runs with a text line above them, where they wait as before.
python3 -c 'import sys; sys.stdout.write("{\"jobs\":[{\"jobname\":\"j\",\"read\":{\"iops\":1}}]}\n" * 5000)' > small.jsonl
charged=$(FIOSCOPE_JSON_PIECE_MIN=$WHOLE FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q -j 1 -o small.out small.jsonl 2>&1 |
    sed -n 's/.*at most \([0-9]*\) bytes charged.*/\1/p')
[ -n "$charged" ] && [ "$charged" -lt 12000000 ] || fail "small.jsonl: $charged bytes charged"
[ "$(grep -c '^{"id":' small.out)" = 5000 ] || fail "small.jsonl: $(grep -c '^{"id":' small.out) runs"
{ echo "results"; cat small.jsonl; } > titled.jsonl
FIOSCOPE_JSON_PIECE_MIN=$WHOLE "$FIOSCOPE" parse --jsonl -q -j 1 titled.jsonl > titled.out
[ "$(grep -c '^{"id":' titled.out)" = 5000 ] || fail "titled.jsonl: $(grep -c '^{"id":' titled.out) runs"
echo "ok: JSON in pieces from json_piece_min ($want runs of JSON Lines)"
