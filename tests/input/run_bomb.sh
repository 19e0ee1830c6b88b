#!/usr/bin/env bash
# Decompression bombs: a 2 GiB gzip stream (32 concatenated gzip members of 64 MiB
# of "a", 2 MB on disk) stops at the ratio cap with a clear entry, fast and without
# holding the data; the size cap works too; a bomb inside a tar spoils only itself.
source "$(dirname "$0")/lib.sh"

head -c 64M /dev/zero | tr '\0' a | gzip -9 > part.gz
for i in $(seq 32); do cat part.gz; done > bomb.gz
cp "$FSC_CORPUS/fio-3.33/g_json.json" good.json

# default limits (ratio 1000): gzip reaches ~1030:1 on this data
start=$(date +%s)
"$FIOSCOPE" parse --jsonl -q bomb.gz > out.jsonl && fail "a bomb must fail"
[ $(($(date +%s) - start)) -le 10 ] || fail "the bomb took too long to stop"
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EXP'
bomb.gz|None|error|0|decompression limit: expands more than the ratio 1000 (--max-ratio)
EXP

# the size cap, lowered for the test (the ratio cap raised out of the way)
"$FIOSCOPE" parse --jsonl -q --max-ratio=5000 --max-member-size=32M bomb.gz > out.jsonl && fail "size cap"
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EXP'
bomb.gz|None|error|0|decompression limit: expands beyond 33554432 (--max-member-size)
EXP

# inside a tar: the bomb member is an error, the member after it is still read;
# inside a tar.gz whose own member expands too far, the rest of that archive is not
tar cf outer.tar bomb.gz good.json
"$FIOSCOPE" parse --jsonl -q outer.tar > out.jsonl && fail "outer.tar"
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EXP'
outer.tar|bomb.gz|error|0|decompression limit: expands more than the ratio 1000 (--max-ratio)
outer.tar|good.json|ok|1|None
EXP
head -c 64M /dev/zero | tr '\0' a > big.txt
tar czf big.tgz big.txt good.json
"$FIOSCOPE" parse --jsonl -q --max-member-size=16M big.tgz > out.jsonl && fail "big.tgz"
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EXP'
big.tgz|big.txt|error|0|decompression limit: declared size is over 16777216 (--max-member-size); the rest of the archive was not read
EXP

# bad option values are usage errors
set +e
"$FIOSCOPE" parse -q --max-ratio=0 bomb.gz > /dev/null 2>&1; rc=$?
set -e
[ "$rc" = 2 ] || fail "--max-ratio=0: exit $rc, want 2"
echo ok
