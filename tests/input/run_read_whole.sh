#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regular files read whole get a buffer of their size at once (read_fd, src/input/
# walk.c: up to whole_max, the smaller of plain_min and the pieces' threshold), and
# the reader's judgement of text against binary data is not made again on the worker
# (judged_text). A file of any size around the edges of that path (the sniff's 512
# bytes, LOOK_BYTES, plain_min) gives the runs that the same bytes give through a pipe,
# which is read another way (read_stream); binary data, zeros and text with NULs are
# still told apart as before.
. "$(dirname "$0")/lib.sh"

cat "$FSC_CORPUS"/fio-3.33/*.txt > all.txt # 60 KiB of fio 3.33: 20 runs
for _ in $(seq 70); do cat all.txt; done > big.txt # 4.2 MB: above plain_min (3.75 MiB)

same_as_pipe() { # file, -j
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$2" "$1" | jsonl_view runs > file.out
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$2" - < "$1" | jsonl_view runs > pipe.out
    cmp -s file.out pipe.out || fail "$1 (-j $2): a file and a pipe differ: $(diff file.out pipe.out | head -5)"
}

for n in 511 512 513 4096 65535 65536 65537 70000 1000000 3932160 3932161; do
    head -c "$n" big.txt > "t$n.txt"
    same_as_pipe "t$n.txt" 1
done
same_as_pipe t3932161.txt 2 # in pieces, side by side
# the runs are all there: a file of 70 copies has 70 x 20 runs
r=$("$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 big.txt | manifest)
[ "$r" = "big.txt|None|ok|1400|None" ] || fail "big.txt: $r"
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
echo "ok: files read whole as through a pipe, around 512 B, 64 KiB and plain_min"
