#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Text with NUL or control bytes in its first 64 KiB but past its first 512 (a crash's
# zero block, a stray NUL in a paste), longer than a text read whole: it is judged on
# those 64 KiB as the whole would be (fsc_text_in_pieces, src/input/item.c), so a
# text despite its NULs is still read in pieces (flat memory) and a binary one is not
# read as text. The output is the whole text's, from a file, a pipe, a tar and a gzip.
. "$(dirname "$0")/lib.sh"

cat "$FSC_CORPUS"/fio-3.33/*.txt > all.txt # 60 KiB of fio 3.33: 20 runs
# the same text: whole (default piece size) and in 4 KiB pieces (above 16 KiB)
same() { # name, what makes the input (on stdout)
    local name=$1
    shift
    "$@" > "$name"
    whole_and_pieces "$name"
}
nul_at() { head -c "$1" all.txt; printf 'x\0y'; cat all.txt all.txt; }
zeros_at() { head -c "$1" all.txt; head -c 4096 /dev/zero; cat all.txt all.txt; }
ctl_at() { head -c "$1" all.txt; printf '\1\2\3\4\5\6\7\10\16\17%.0s' $(seq 1 60); cat all.txt all.txt; }

for at in 600 3000 40000; do
    same nul_$at.txt nul_at $at
    [ "$PIECES" -gt 3 ] || fail "a NUL at $at: not read in pieces"
    same zeros_$at.txt zeros_at $at
    [ "$PIECES" -gt 3 ] || fail "zeros at $at: not read in pieces"
    same ctl_$at.txt ctl_at $at
done
r=$(manifest < whole.jsonl)
[ "$r" = "ctl_40000.txt|None|ok|49|None" ] || fail "control bytes: $r"
manifest < <("$FIOSCOPE" parse --jsonl -q --fail-on=none zeros_600.txt) | grep -qx 'zeros_600.txt|None|ok|41|None' ||
    fail "zeros at 600: $(manifest < <("$FIOSCOPE" parse --jsonl -q --fail-on=none zeros_600.txt))"

# mostly control bytes from byte 600 on: binary, whole or in pieces
ctl_block() { head -c 600 all.txt; for i in $(seq 1 3000); do printf '\1\2\3\4\5\6\7\10\16\17\20\21\22\23\24\25'; done; cat all.txt; }
same ctl.bin ctl_block
[ "$(manifest < whole.jsonl)" = "ctl.bin|None|error|0|binary data: neither text nor a known archive or compressed format" ] ||
    fail "control bytes past 512: $(manifest < whole.jsonl)"

# NULs all through the first 64 KiB: read whole as before (all of it may be NULs:
# an entry of its own, which pieces would not give)
zeros_first() { head -c 70000 /dev/zero; cat all.txt; }
same zeros_first.txt zeros_first
[ "$(manifest < whole.jsonl)" = "zeros_first.txt|None|ok|20|None" ] || fail "zeros first: $(manifest < whole.jsonl)"
nuls_only() { head -c 100000 /dev/zero; }
same zeros.txt nuls_only
[ "$(manifest < pieces.jsonl)" = "zeros.txt|None|no-runs|0|only NUL bytes (100000): nothing was written in it" ] ||
    fail "NULs only: $(manifest < pieces.jsonl)"

# the same from a pipe, a tar and a gzip: each in pieces as its whole
for f in nul_600.txt zeros_3000.txt ctl.bin; do
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 - < "$f" > whole.jsonl
    FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 - < "$f" > pieces.jsonl
    cmp -s whole.jsonl pieces.jsonl || fail "$f from a pipe: in pieces, another output"
    tar cf t.tar "$f" && gzip -c "$f" > "$f.gz"
    for a in t.tar "$f.gz"; do
        "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$a" > whole.jsonl
        FIOSCOPE_PIECE_BYTES=4096 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 "$a" > pieces.jsonl
        cmp -s whole.jsonl pieces.jsonl || fail "$f in $a: in pieces, another output"
    done
done
echo ok
