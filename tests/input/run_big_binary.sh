#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A regular file over 24 MiB whose first bytes look binary (a fio job's data file next
# to its logs, a core dump) is answered from its first MiB as the whole file would be,
# without reading it into memory (src/input/walk.c big_binary): "binary data", or
# "only NUL bytes (N)" after a scan of the rest. What its first bytes do not decide
# (zeros then text, UTF-32, text with stray NULs) is read as before.
. "$(dirname "$0")/lib.sh"
# ASan's shadow memory and quarantine come on top of the program's own: the memory
# bounds hold for the plain build (its suite runs this test too)
asan=false
case "${FSC_BUILD_DIR:-}" in *asan*) asan=true ;; esac

good=$FSC_CORPUS/fio-3.33/a_randread_psync.txt
mkdir data
cp "$good" data/out.txt
head -c 40000000 /dev/urandom > data/randread.0.0 # fio's default buffers: random
truncate -s 200M data/zeros.0.0                     # zero_buffers=1, or never written
truncate -s 25M data/crash.log && cat "$good" >> data/crash.log # a crash's zero blocks, then text
# text for its first 512 bytes, then binary: judged on 64 KiB, as random data must be
# (no NUL in 512 random bytes one time in seven: then it was read as text, in pieces)
{ head -c 600 "$good"; head -c 30000000 /dev/urandom; } > data/head.0.0
/usr/bin/time -f '%M' -o rss.txt "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 data > out.jsonl
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EOF'
data/crash.log|None|ok|1|None
data/head.0.0|None|error|0|binary data: neither text nor a known archive or compressed format
data/out.txt|None|ok|1|None
data/randread.0.0|None|error|0|binary data: neither text nor a known archive or compressed format
data/zeros.0.0|None|no-runs|0|only NUL bytes (209715200): nothing was written in it
EOF
# 270 MB of data files in about the memory of the logs (it was 250 MB and more): the
# crash log is read whole (26 MB, and its copy without the NULs)
$asan || [ "$(cat rss.txt)" -lt 98304 ] || fail "peak RSS $(cat rss.txt) KB"
# alone, the text-headed one is judged without being read (it took 70 MB and 1.4 s)
/usr/bin/time -f '%M' -o rss.txt "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 data/head.0.0 > head.jsonl
[ "$(manifest < head.jsonl)" = "data/head.0.0|None|error|0|binary data: neither text nor a known archive or compressed format" ] ||
    fail "text, then binary: $(manifest < head.jsonl)"
$asan || [ "$(cat rss.txt)" -lt 32768 ] || fail "text, then binary: peak RSS $(cat rss.txt) KB"
# a self-extracting zip (a program, then the zip, found from its end) is still read
if command -v zip > /dev/null; then
    cp "$good" log.txt && zip -q a.zip log.txt
    { head -c 26000000 /dev/urandom; cat a.zip; } > sfx.exe && zip -q -A sfx.exe
    "$FIOSCOPE" parse --jsonl -q --fail-on=none sfx.exe | manifest > sfx.txt
    [ "$(cat sfx.txt)" = "sfx.exe|log.txt|ok|1|None" ] || fail "self-extracting zip: $(cat sfx.txt)"
fi
# ... and inside a tar (a fio working directory tarred): a binary member over 24 MiB is
# read on without being kept (src/input/archive.c discard_binary), its entry the same;
# a program (a self-extracting zip's start) and zeros are read whole as before
mkdir tarred && cp "$good" tarred/out.txt
head -c 100000000 /dev/urandom > tarred/randread.0.0
{ printf '\177ELF'; head -c 30000000 /dev/urandom; } > tarred/tool
tar cf t.tar tarred
/usr/bin/time -f '%M' -o rss.txt "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 t.tar > t.jsonl
manifest < t.jsonl | sort > got.txt
expect_manifest got.txt <<'EOF'
t.tar|tarred/out.txt|ok|1|None
t.tar|tarred/randread.0.0|error|0|binary data: neither text nor a known archive or compressed format
t.tar|tarred/tool|error|0|binary data: neither text nor a known archive or compressed format
EOF
# the program is read whole (30 MB); the 100 MB member no longer is
$asan || [ "$(cat rss.txt)" -lt 81920 ] || fail "tar: peak RSS $(cat rss.txt) KB"
# the same entries as a file of that kind read whole (below 24 MiB)
head -c 3000000 /dev/urandom > small.0.0
"$FIOSCOPE" parse --jsonl -q --fail-on=none small.0.0 | manifest | grep -q '|binary data: neither text' ||
    fail "a small binary file: another message"
echo ok
