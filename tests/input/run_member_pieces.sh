#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An archive member longer than a file read whole is read in pieces as it is inflated
# (src/input/archive.c, in_pieces), as the same text in a file is: its runs, ids, line
# numbers and manifest entry are those of the member read whole, in tar and zip, with
# the folder window of the archive group (FIOSCOPE_HOLD_BYTES) or without. The logs
# of another folder, before and after it, still join their own runs. The pieces of a
# member claim no log (documented in docs/batch.md).
here=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"

mkdir -p first big last
cp -r "$here/logs/fixtures/perio" first/
cp -r "$here/logs/fixtures/perio" last/
for i in 1 2 3; do
    cat "$FSC_CORPUS"/fio-3.33/*.txt "$FSC_CORPUS"/fio-2.1.10/*.txt "$FSC_CORPUS"/fio-2.15/*.txt
done > big/all.txt
cp "$FSC_CORPUS"/fio-3.33/a_randread_psync.txt big/small.txt
tar czf a.tgz first big last
zip -q -r a.zip first big last

for arc in a.tgz a.zip; do
    # default pieces (4 MiB): every member here is read whole
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$arc" > whole.jsonl
    "$FIOSCOPE" parse -q --fail-on=none -j 1 "$arc" > whole.json
    runs=$(grep -vc '^{"input"' whole.jsonl)
    [ "$runs" -gt 100 ] || fail "$arc: only $runs runs"
    /usr/bin/python3 - whole.jsonl <<'PY' || fail "$arc: logs did not join their runs"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if 'input' not in r]
joined = [(r['source']['member'], len(r.get('series', []))) for r in runs if r.get('series')]
assert joined == [('first/perio/out.txt', 5), ('last/perio/out.txt', 5)], joined
assert not [r for r in runs if r['source']['format'] == 'log']
PY
    for j in 1 4; do
        for hold in "" 4096; do
            FIOSCOPE_HOLD_BYTES=$hold FIOSCOPE_PIECE_BYTES=4096 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl \
                -q --fail-on=none -j "$j" "$arc" > pieces.jsonl 2> pieces.err
            cmp -s whole.jsonl pieces.jsonl ||
                fail "$arc -j $j hold '$hold': the member in pieces differs: $(diff whole.jsonl pieces.jsonl | head -3)"
            n=$(grep -c 'big/all.txt: memory:' pieces.err)
            [ "$n" -gt 20 ] || fail "$arc -j $j: big/all.txt was not read in pieces ($n)"
            [ "$(grep -c 'big/small.txt: memory:' pieces.err)" = 1 ] || fail "$arc: a small member was cut"
        done
        FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse -q --fail-on=none -j "$j" "$arc" > pieces.json
        cmp -s whole.json pieces.json || fail "$arc -j $j: runs kept as runs differ in pieces"
    done
    # the manifest: one entry for the member, with all of its runs
    m=$(FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none "$arc" | manifest | grep 'big/all.txt')
    want=$(manifest < whole.jsonl | grep 'big/all.txt')
    [ "$m" = "$want" ] || fail "$arc: manifest $m, whole $want"
    case $m in "$arc|big/all.txt|ok|"*) ;; *) fail "$arc: manifest entry $m" ;; esac
done

# an archive cut short in the middle of the member: the runs read so far, then an error
# entry naming the member (and one for the archive)
mkdir t2 && for i in $(seq 10); do cat big/all.txt; done > t2/big.txt
tar czf t2.tgz t2
head -c $(( $(stat -c %s t2.tgz) / 2 )) t2.tgz > cut.tgz
FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 cut.tgz > cut.jsonl
m=$(manifest < cut.jsonl | awk 'NR == 1')
case $m in
"cut.tgz|t2/big.txt|error|"*"|cannot read member: truncated gzip input") ;;
*) fail "a member cut short: $m" ;;
esac
r=$(echo "$m" | cut -d'|' -f4)
[ "$r" -gt 100 ] && [ "$(grep -vc '^{"input"' cut.jsonl)" = "$r" ] || fail "a member cut short: $r runs"

# a member with binary bytes or NULs past its first 512 bytes is judged on what
# fsc_looks_binary sees of the whole member (its first 64 KiB), as read whole: it
# was cut in pieces, its first piece an error and the rest parsed. The bytes are the
# same at every run (from /dev/urandom, one run in 16 held a U+0085 whose line break
# the whole member numbered and its pieces did not), and hold Unicode's line breaks
mkdir nul
binary() {
    python3 -c 'import random, sys
r = random.Random(43)
b = bytearray(r.randrange(256) for _ in range(4000))
b[1000:1002] = b"\xc2\x85"
b[2000:2003] = b"\xe2\x80\xa8"
sys.stdout.buffer.write(bytes(b))'
}
{ head -c 600 big/all.txt; binary; cat big/all.txt; } > nul/bin.txt
{ head -c 3000 big/all.txt; printf 'x\0y'; cat big/all.txt; } > nul/stray.txt
{ cat big/all.txt; head -c 4096 /dev/zero; cat big/all.txt; } > nul/crash.txt
tar cf nul.tar nul
"$FIOSCOPE" parse --jsonl -q --fail-on=none nul.tar > nul_whole.jsonl
for j in 1 2; do
    FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j $j nul.tar > nul_pieces.jsonl
    cmp -s nul_whole.jsonl nul_pieces.jsonl ||
        fail "NUL members (-j $j): $(diff <(manifest < nul_whole.jsonl) <(manifest < nul_pieces.jsonl))"
done

# a log member stays whole (its pieces would join a series the window delivered)
for i in $(seq 1 40); do cat first/perio/perio_bw.1.log; done > first/perio/perio_bw.2.log
tar cf l.tar first
FIOSCOPE_PIECE_BYTES=4096 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none l.tar > l.jsonl 2> l.err
[ "$(grep -c 'perio_bw.2.log: memory:' l.err)" -le 1 ] || fail "a log member was cut in pieces"
"$FIOSCOPE" parse --jsonl -q --fail-on=none l.tar | cmp -s - l.jsonl || fail "a log member: not as whole"
echo ok
