#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Huge text files are read in pieces (FIOSCOPE_PIECE_BYTES lowers the piece size so
# that a small file is cut many times): the output must equal that of the whole file,
# with run ids, line numbers and the manifest entry continuing across the pieces.
. "$(dirname "$0")/lib.sh"

for i in 1 2 3 4 5 6; do
    cat "$FSC_CORPUS"/fio-3.33/*.txt "$FSC_CORPUS"/fio-2.1.10/*.txt "$FSC_CORPUS"/fio-2.15/*.txt
done > big.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 big.txt > whole.jsonl
runs=$(grep -vc '^{"input"' whole.jsonl)
[ "$runs" -gt 300 ] || fail "only $runs runs in the whole file"
# -j 4: pieces finish out of turn, so some are numbered by their worker and some
# renumbered on delivery
for piece in 4096 20000 65536; do
    for j in 1 2 4; do
        FIOSCOPE_PIECE_BYTES=$piece "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" big.txt > pieces.jsonl
        cmp -s whole.jsonl pieces.jsonl || fail "pieces of $piece bytes (-j $j) differ from the whole file"
    done
done
# a pipe: its first 4 pieces come read at once and are copied out one by one
cat big.txt | "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 - > whole_pipe.jsonl
for j in 1 4; do
    cat big.txt | FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" - > pipe_pieces.jsonl
    cmp -s whole_pipe.jsonl pipe_pieces.jsonl || fail "a pipe in pieces (-j $j) differs from the whole"
done
# the same for runs kept as runs (one JSON document: run ids set on the run objects)
"$FIOSCOPE" parse -q --fail-on=none -j 1 big.txt > whole.json
FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse -q --fail-on=none -j 4 big.txt > pieces.json
cmp -s whole.json pieces.json || fail "document of pieces (-j 4) differs from the whole file's"
# exactly one manifest entry, with every run
[ "$(manifest < pieces.jsonl)" = "big.txt|None|ok|$runs|None" ] || fail "manifest: $(manifest < pieces.jsonl)"
# the last run's id and line numbers are those of the whole file's last run
tail -2 pieces.jsonl | head -1 | grep -q "\"id\":\"big.txt#$runs\"" || fail "last run id"
# text where no job definition follows a report (mail-quoted): cut after blank lines
# or at line ends (documented: such a cut can split a run); one manifest entry
for i in 1 2 3 4 5 6 7 8; do cat "$FSC_CORPUS"/damaged/*.mail_quote.txt; done > quoted.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 quoted.txt > whole.jsonl
FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 quoted.txt > pieces.jsonl
[ "$(manifest < pieces.jsonl | cut -d'|' -f1-3)" = "quoted.txt|None|ok" ] || fail "quoted manifest"
python3 - whole.jsonl pieces.jsonl <<'PY' || fail "quoted: runs lost or renumbered lines"
import json, sys
def lines(p):
    return [(r["source"]["first_line"], r["jobs"][0]["jobname"] if r["jobs"] else None)
            for r in map(json.loads, open(p)) if "input" not in r]
a, b = lines(sys.argv[1]), lines(sys.argv[2])
# a boundary inside a run may split it in two, but every run of the whole file is
# still found, starting at the same line with the same first job
assert len(a) >= 40 and set(a) <= set(b), (len(a), len(b), len(set(a) & set(b)))
PY
# terse records: blocks of records parted by blank lines (each block one run) are cut
# between blocks, so that memory stays flat, and read as in the whole file
for i in $(seq 1 40); do
    for f in "$FSC_CORPUS"/fio-*/g_terse*.terse; do cat "$f"; echo; done
done > many.terse
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 many.terse > whole.jsonl
[ "$(grep -vc '^{"input"' whole.jsonl)" -gt 300 ] || fail "many.terse: too few runs"
for j in 1 2; do
    FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" many.terse > pieces.jsonl
    cmp -s whole.jsonl pieces.jsonl || fail "many.terse in pieces (-j $j) differs from the whole file"
done
# JSON over the piece size (finding M6): a piece never ends inside a JSON document;
# concatenated documents are cut between them, a single one is read whole
for i in $(seq 1 12); do cat "$FSC_CORPUS"/fio-3.33/g_json*.json "$FSC_CORPUS"/fio-3.13/g_jsonplus.json; done > many.json
python3 - "$FSC_CORPUS"/fio-3.33/g_json_nogroup.json > one.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["jobs"] = doc["jobs"] * 60  # one document of 240 jobs
print(json.dumps(doc, indent=2))
PY
for f in many.json one.json; do
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$f" > whole.jsonl
    runs=$(grep -vc '^{"input"' whole.jsonl)
    [ "$runs" -ge 1 ] || fail "$f: no runs in the whole file"
    for j in 1 2; do
        FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" "$f" > pieces.jsonl
        cmp -s whole.jsonl pieces.jsonl || fail "$f in pieces (-j $j) differs from the whole file"
    done
done
[ "$(grep -vc '^{"input"' whole.jsonl)" = 1 ] || fail "one.json: one run expected"
# ... and it is the run of the same file gzipped (never read in pieces), job for job
gzip -c one.json > one.json.gz
"$FIOSCOPE" parse --jsonl -q --fail-on=none one.json.gz | sed 's/one\.json\.gz/one.json/g' > gz.jsonl
cmp -s whole.jsonl gz.jsonl || fail "one.json in pieces differs from one.json.gz"
python3 - pieces.jsonl <<'PY' || fail "one.json: the run lost jobs"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
assert len(runs) == 1 and len(runs[0]["jobs"]) == 240, [len(r["jobs"]) for r in runs]
PY
# JSON whose raw lines do not start with '{': mail-quoted, log-prefixed (the parser
# sees the document only after normalizing), and a document with a stray quote (a
# string ends at its line's end, for the parser and the cut alike). Each must read
# in pieces as it reads whole: the quoted one as one run of 240 jobs, the prefixed
# one with the same error naming its line, never a silent "no runs".
sed 's/^/> /' one.json > quoted.json.txt
sed 's/^/2026-11-30T10:00:00Z runner: /' one.json > prefixed.json.txt
python3 - one.json > stray.json.txt <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
# damaged: the first string never closes; read across the line end, the braces
# in the next line's string would be outside it and close the document early
lines[40:40] = ['  "note" : "a stray quote,', '  "}}}}",', '  "']
print("\n".join(lines))
PY
for f in quoted.json.txt prefixed.json.txt stray.json.txt; do
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$f" > whole.jsonl
    for j in 1 2; do
        FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" "$f" > pieces.jsonl
        cmp -s whole.jsonl pieces.jsonl || fail "$f in pieces (-j $j) differs from the whole file"
    done
done
FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 quoted.json.txt > pieces.jsonl
[ "$(manifest < pieces.jsonl)" = "quoted.json.txt|None|ok|1|None" ] || fail "quoted JSON: $(manifest < pieces.jsonl)"
FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 prefixed.json.txt > pieces.jsonl
manifest < pieces.jsonl | grep -q '^prefixed.json.txt|None|no-runs|0|line 1: ' || fail "prefixed JSON: $(manifest < pieces.jsonl)"
# JSON printed without indentation ("},\n{" inside an array, "}\n{" only between
# documents): at -j 2 the workers read the pieces and the reading thread looks only
# at a window before each cut, where it cannot see the documents: it cuts only after
# a lone '}', which no document holds inside
python3 - "$FSC_CORPUS"/fio-3.33/g_json_nogroup.json > flat.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["jobs"] = doc["jobs"] * 60
for _ in range(3):
    print(json.dumps(doc, indent=0))
PY
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 flat.json > whole.jsonl
[ "$(grep -vc '^{"input"' whole.jsonl)" = 3 ] || fail "flat.json: 3 runs expected"
for j in 2 4; do
    FIOSCOPE_PIECE_BYTES=16384 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" flat.json > pieces.jsonl
    cmp -s whole.jsonl pieces.jsonl || fail "flat.json in pieces (-j $j) differs from the whole file"
done
# a damaged JSON document amid a huge text (its brackets never balance, a lone '}'
# line then a '{' line inside it): a worker whose piece ends inside it reads on
# (fsc_piece_settle), and the pieces give the output of the whole file
{ cat big.txt; printf '{\n  "a": [\n}\n{\n  "b": 1\n'; cat big.txt; } > damaged_mid.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 damaged_mid.txt > whole.jsonl
for piece in 4096 20000; do
    for j in 2 4; do
        FIOSCOPE_PIECE_BYTES=$piece "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" damaged_mid.txt > pieces.jsonl
        cmp -s whole.jsonl pieces.jsonl || fail "damaged_mid.txt in pieces of $piece (-j $j) differs from the whole file"
    done
done
# a file that shrinks while its pieces are read (truncated under the running parse;
# when depends on the machine): one manifest entry all the same, ok with the runs of
# what is left or an error that says so; never a crash or a second entry
for delay in 0.01 0.05 0.2; do
    for i in $(seq 1 24); do cat big.txt; done > shrinking.txt
    FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 shrinking.txt > shrunk.jsonl &
    pid=$!
    sleep "$delay"
    truncate -s 100000 shrinking.txt
    wait "$pid" || fail "a shrinking file: exit $?"
    [ "$(grep -c '^{"input"' shrunk.jsonl)" = 1 ] || fail "a shrinking file: $(grep -c '^{"input"' shrunk.jsonl) manifest entries"
    manifest < shrunk.jsonl | grep -Eq '^shrinking.txt\|None\|(ok|error)\|' || fail "a shrinking file: $(manifest < shrunk.jsonl)"
done
# the reading thread reading every piece itself (the way before workers read them)
# gives the same output
FIOSCOPE_READER_READS=1 FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 big.txt > reader.jsonl
FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 big.txt > pieces.jsonl
cmp -s reader.jsonl pieces.jsonl || fail "pieces read by the workers differ from pieces read by the reader"
# a text that ends right at a cut (a fio log of whole steps, 16-byte rows): the reader
# sees the end only after the last piece and closes the entry with an empty piece
# (it used to wait for a cut for ever); from a file and from a pipe
python3 -c 'import sys; sys.stdout.write("100, 2, 0, 4096\n" * 768)' > whole_lat.1.log
FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse --jsonl -q -j 1 whole_lat.1.log > whole.jsonl
for j in 1 2; do
    FIOSCOPE_PIECE_BYTES=4096 timeout 60 "$FIOSCOPE" parse --jsonl -q -j "$j" whole_lat.1.log > pieces.jsonl ||
        fail "a log of whole pieces (-j $j): exit $?"
    cmp -s whole.jsonl pieces.jsonl || fail "a log of whole pieces (-j $j) differs from the whole file"
done
python3 -c 'import sys; sys.stdout.write(("x" * 4095 + "\n") * 8)' > lines.txt
cat lines.txt | FIOSCOPE_PIECE_BYTES=4096 timeout 60 "$FIOSCOPE" parse --jsonl -q --fail-on=none - > pieces.jsonl ||
    fail "a pipe that ends at a cut: exit $?"
[ "$(manifest < pieces.jsonl)" = "-|None|no-runs|0|None" ] || fail "pipe ending at a cut: $(manifest < pieces.jsonl)"

# a compressed file of text longer than a file read whole (log.txt.gz; here over 4
# pieces): the rest is read in pieces as it is inflated, not whole in memory, and
# the runs are those of the same text uncompressed (gzip by ISA-L or zlib, xz, zstd)
FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 big.txt > plain.jsonl
gzip -9 -c big.txt > big.txt.gz
xz -c big.txt > big.txt.xz
zstd -q -c big.txt > big.txt.zst
for z in gz xz zst; do
    for j in 1 4; do
        for isal in 0 1; do
            [ $z != gz ] && [ $isal = 1 ] && continue
            FIOSCOPE_NO_ISAL=$isal FIOSCOPE_PIECE_BYTES=4096 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q \
                --fail-on=none -j "$j" "big.txt.$z" > z.jsonl 2> z.err
            sed "s/big\.txt\.$z/big.txt/g" z.jsonl | cmp -s - plain.jsonl ||
                fail "big.txt.$z (-j $j, FIOSCOPE_NO_ISAL=$isal): not the runs of the text uncompressed"
            [ "$(grep -c 'memory:' z.err)" -gt 20 ] || fail "big.txt.$z (-j $j) was not parsed in pieces"
        done
    done
done
# its limits hold as the pieces are read (past the first MiB, which is read whole): an
# error entry after the runs read so far
for i in 1 2 3 4 5; do cat big.txt; done | gzip -9 > big5.txt.gz
for lim in "--max-member-size=2M|expands beyond 2097152 (--max-member-size)" \
           "--max-ratio=5|expands more than the ratio 5 (--max-ratio)"; do
    FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none "${lim%%|*}" big5.txt.gz > lim.jsonl
    m=$(manifest < lim.jsonl)
    case $m in
    "big5.txt.gz|None|error|"*"|decompression limit: ${lim#*|}") ;;
    *) fail "a text over ${lim%%|*} read in pieces: $m" ;;
    esac
    [ "$(grep -vc '^{"input"' lim.jsonl)" -gt 300 ] || fail "${lim%%|*}: too few runs before the limit"
done
# a tar.gz's member too (run_member_pieces.sh: folders, logs, zip), its runs those of
# the same text as a file but for the member in their ids
tar czf one.tar.gz big.txt
FIOSCOPE_PIECE_BYTES=4096 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none one.tar.gz > t.jsonl 2> t.err
[ "$(grep -c 'memory:' t.err)" -gt 20 ] || fail "a tar member was not read in pieces"
sed 's/"one\.tar\.gz:big\.txt#/"big.txt#/; s/"path":"one\.tar\.gz","member":"big\.txt"/"path":"big.txt","member":null/' t.jsonl |
    cmp -s - plain.jsonl || fail "a tar member in pieces: not the runs of the file"
# JSON Lines (fioscope's own output read back): a piece may end between two
# documents of one line each; the runs are those of the file read whole
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 big.txt > big.jsonl
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 big.jsonl > lines_whole.jsonl
[ "$(grep -vc '^{"input"' lines_whole.jsonl)" -gt 300 ] || fail "JSON Lines read back: too few runs"
for j in 1 4; do
    FIOSCOPE_PIECE_BYTES=4096 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" \
        big.jsonl > lines_pieces.jsonl 2> lines.err
    cmp -s lines_whole.jsonl lines_pieces.jsonl || fail "JSON Lines in pieces (-j $j) differ from the whole"
    [ "$(grep -c 'memory:' lines.err)" -gt 20 ] || fail "JSON Lines (-j $j) were not cut between documents"
done
# ... a piece's size apart, not only where four pieces' worth found no boundary
FIOSCOPE_PIECE_BYTES=65536 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 big.jsonl \
    > lines_pieces.jsonl 2> lines.err
cmp -s lines_whole.jsonl lines_pieces.jsonl || fail "JSON Lines in 64 KiB pieces differ from the whole"
n=$(grep -c 'memory:' lines.err)
[ "$n" -ge "$(( $(stat -c %s big.jsonl) / 65536 - 1 ))" ] || fail "JSON Lines: $n pieces of 64 KiB"
echo ok
