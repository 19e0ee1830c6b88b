#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regular files read whole get a buffer of their size at once (read_fd, src/input/
# walk.c: up to whole_max, the smaller of plain_min and the pieces' threshold), and
# the reader's judgement of text against binary data is not made again on the worker
# (judged_text). A file of any size around the edges of that path (the sniff's 512
# bytes, LOOK_BYTES, plain_min) gives the runs that the same bytes give through a pipe,
# which is read another way (read_stream); binary data, zeros and text with NULs are
# still told apart as before. Pieces of 64 KiB (so piece_min is 256 KiB) and a
# plain_min of 200,000 bytes (by default 960 KiB, 24 MiB and 3.75 MiB) keep the texts
# on either side of those edges short, for the suite's time under ASan.
. "$(dirname "$0")/lib.sh"
export FIOSCOPE_PIECE_BYTES=65536 FIOSCOPE_PLAIN_MIN=200000

cat "$FSC_CORPUS"/fio-3.33/*.txt > all.txt # 60 KiB of fio 3.33: 20 runs
for _ in $(seq 10); do cat all.txt; done > big.txt # 600 KB: above plain_min

# Parse $1 at -j $2 as a file and through a pipe; compared at the end, all at once
# (a python3 per pair cost seconds: pyenv's shims).
pairs=()
same_as_pipe() { # file, -j
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$2" "$1" > "$1.$2.file"
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$2" - < "$1" > "$1.$2.pipe"
    pairs+=("$1.$2")
}
pairs_differ() { # the pairs whose runs differ, but for what names the input
    python3 -c '
import json, sys
def runs(name):
    out = []
    for line in open(name):
        o = json.loads(line)
        if "input" in o:
            e = o["input"]
            out.append(("input", e["status"], e["runs"], e["error"]))
        else:
            o.pop("id", None)
            o.get("source", {}).pop("path", None)
            out.append(json.dumps(o, sort_keys=True))
    return out
for p in sys.argv[1:]:
    if runs(p + ".file") != runs(p + ".pipe"):
        print(p)
' "${pairs[@]}"
}

for n in 511 512 513 4096 65535 65536 65537 70000 200000 200001 262144 262145; do
    head -c "$n" big.txt > "t$n.txt"
    same_as_pipe "t$n.txt" 1
done
same_as_pipe t200001.txt 2 # in pieces, side by side
same_as_pipe t262145.txt 2
# up to whole_max (200,000 here) a file is one document; above it, pieces
pieces() { FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q -j 1 "$1" 2>&1 > /dev/null | grep -c ': memory: ' || true; }
[ "$(pieces t200000.txt)" = 1 ] || fail "t200000.txt: not one document: $(pieces t200000.txt)"
[ "$(pieces t200001.txt)" -gt 2 ] || fail "t200001.txt: not in pieces: $(pieces t200001.txt)"
[ "$(pieces t262145.txt)" -gt 2 ] || fail "t262145.txt: not in pieces: $(pieces t262145.txt)"
# the runs are all there: a file of 10 copies has 10 x 20 runs
r=$("$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 big.txt | manifest)
[ "$r" = "big.txt|None|ok|200|None" ] || fail "big.txt: $r"
r=$("$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 t65537.txt | manifest)
[ "${r%%|*}" = "t65537.txt" ] && [ "$(cut -d'|' -f3 <<< "$r")" = ok ] || fail "t65537.txt: $r"

# binary data over the sniff and over LOOK_BYTES; zeros; text with NULs late in it
python3 -c '
import random
r = random.Random(16)
open("rnd3k.bin", "wb").write(bytes(r.randrange(256) for _ in range(3000)))
open("rnd70k.bin", "wb").write(bytes(r.randrange(256) for _ in range(70000)))
'
head -c 100000 /dev/zero > zeros.log
{ head -c 66000 all.txt; printf '\0\0\0'; cat all.txt; } > nul_late.txt
{ head -c 1000 all.txt; printf '\0'; cat all.txt all.txt; } > nul_early.txt
binary="binary data: neither text nor a known archive or compressed format"
for j in 1 2; do
    r=$("$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" rnd3k.bin rnd70k.bin zeros.log nul_late.txt nul_early.txt |
        manifest)
    expect_manifest <(printf '%s\n' "$r") <<EOF
rnd3k.bin|None|error|0|$binary
rnd70k.bin|None|error|0|$binary
zeros.log|None|no-runs|0|only NUL bytes (100000): nothing was written in it
nul_late.txt|None|ok|40|None
nul_early.txt|None|ok|41|None
EOF
done
for f in rnd70k.bin nul_late.txt nul_early.txt; do same_as_pipe "$f" 1; done
bad=$(pairs_differ)
[ -z "$bad" ] || fail "a file and a pipe differ (file.-j): $bad"
echo "ok: files read whole as through a pipe, around 512 B, 64 KiB and plain_min"
