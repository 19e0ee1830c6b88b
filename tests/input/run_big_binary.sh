#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A regular file over 24 MiB whose first bytes look binary (a fio job's data file next
# to its logs, a core dump) is answered from its first MiB as the whole file would be,
# without reading it into memory (src/input/walk.c big_binary): "binary data", or
# "only NUL bytes (N)" after a scan of the rest. What its first bytes do not decide
# (zeros then text, UTF-32, text with stray NULs) is read as before.
. "$(dirname "$0")/lib.sh"

good=$FSC_CORPUS/fio-3.33/a_randread_psync.txt
mkdir data
cp "$good" data/out.txt
head -c 40000000 /dev/urandom > data/randread.0.0 # fio's default buffers: random
truncate -s 200M data/zeros.0.0                     # zero_buffers=1, or never written
truncate -s 25M data/crash.log && cat "$good" >> data/crash.log # a crash's zero blocks, then text
/usr/bin/time -f '%M' -o rss.txt "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 data > out.jsonl
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EOF'
data/crash.log|None|ok|1|None
data/out.txt|None|ok|1|None
data/randread.0.0|None|error|0|binary data: neither text nor a known archive or compressed format
data/zeros.0.0|None|no-runs|0|only NUL bytes (209715200): nothing was written in it
EOF
# 240 MB of data files in about the memory of the logs (it was 250 MB and more)
[ "$(cat rss.txt)" -lt 65536 ] || fail "peak RSS $(cat rss.txt) KB"
# a self-extracting zip (a program, then the zip, found from its end) is still read
if command -v zip > /dev/null; then
    cp "$good" log.txt && zip -q a.zip log.txt
    { head -c 26000000 /dev/urandom; cat a.zip; } > sfx.exe && zip -q -A sfx.exe
    "$FIOSCOPE" parse --jsonl -q --fail-on=none sfx.exe | manifest > sfx.txt
    [ "$(cat sfx.txt)" = "sfx.exe|log.txt|ok|1|None" ] || fail "self-extracting zip: $(cat sfx.txt)"
fi
# the same entries as a file of that kind read whole (below 24 MiB)
head -c 3000000 /dev/urandom > small.0.0
"$FIOSCOPE" parse --jsonl -q --fail-on=none small.0.0 | manifest | grep -q '|binary data: neither text' ||
    fail "a small binary file: another message"
echo ok
