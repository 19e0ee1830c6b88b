#!/usr/bin/env bash
# Parallel parsing delivers exactly the serial output: the same bytes for -j 1, -j 2
# and -j 4 over a few hundred files, archives and junk, streamed as JSONL.
source "$(dirname "$0")/lib.sh"

mkdir -p tree
i=0
for f in "$FSC_CORPUS"/fio-*/*; do
    i=$((i + 1))
    mkdir -p "tree/$((i % 7))"
    cp "$f" "tree/$((i % 7))/$i-$(basename "$f")"
done
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 64)' > tree/junk.bin
tar czf tree/0/pack.tgz -C "$FSC_CORPUS/fio-3.33" .
(cd "$FSC_CORPUS/fio-2.15" && python3 -c '
import zipfile, os, sys
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for n in sorted(os.listdir(".")): z.write(n)' "$T/tree/1/pack.zip")
n=$(find tree -type f | wc -l)
[ "$n" -gt 200 ] || fail "only $n files"

"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 tree > j1.jsonl
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 tree > j2.jsonl
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 4 tree > j4.jsonl
cmp j1.jsonl j2.jsonl || fail "-j 2 differs from -j 1"
cmp j1.jsonl j4.jsonl || fail "-j 4 differs from -j 1"
"$FIOSCOPE" parse -q --fail-on=none -j 3 tree > j3.json
"$FIOSCOPE" parse -q --fail-on=none -j 1 tree > j1.json
cmp j1.json j3.json || fail "whole document: -j 3 differs from -j 1"

# without -j, a few small files (128 KiB in all at most) are parsed with no worker
# thread: the same bytes as with workers, for each file alone and for files together
small=$(find tree -type f -size -8k | sort | awk 'NR <= 40') # awk reads all: head could end sort by SIGPIPE (pipefail)
[ "$(echo "$small" | wc -l)" -ge 20 ] || fail "too few small files"
for f in $small; do
    "$FIOSCOPE" parse --jsonl -q --fail-on=none "$f" > inl.jsonl
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 "$f" > thr.jsonl
    cmp -s inl.jsonl thr.jsonl || fail "$f: parsed on the walking thread, it differs from -j 2"
done
few=$(echo "$small" | awk 'NR <= 12') # under 8 KiB each: under 128 KiB together
# shellcheck disable=SC2086 # the list is word-split on purpose
"$FIOSCOPE" parse -q --fail-on=none $few > inl.json
# shellcheck disable=SC2086
"$FIOSCOPE" parse -q --fail-on=none -j 2 $few > thr.json
cmp -s inl.json thr.json || fail "small files together: parsed on the walking thread, they differ from -j 2"

# every file has one entry, in sorted walk order, archives expanded in place
python3 - j1.jsonl "$n" <<'PY' || fail "manifest of the tree"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
entries = [o["input"] for o in lines if "input" in o]
files = sorted({e["path"] for e in entries})
assert len(files) == int(sys.argv[2]), (len(files), sys.argv[2])
paths = [e["path"] for e in entries]
# each path's entries are contiguous, and paths come in sorted walk order
seen = []
for p in paths:
    if not seen or seen[-1] != p:
        seen.append(p)
assert seen == sorted(seen), "not in sorted order"
assert len(seen) == len(files)
junk = [e for e in entries if e["path"] == "tree/junk.bin"]
assert junk[0]["status"] == "error" and junk[0]["error"].startswith("binary data")
members = [e["member"] for e in entries if e["path"] == "tree/0/pack.tgz"]
assert "./g_json.json" in members, members[:5]
ok = [e for e in entries if e["status"] == "ok"]
runs = [o for o in lines if "input" not in o]
assert sum(e["runs"] for e in entries) == len(runs) and len(ok) >= 20, (len(ok), len(runs))
PY
echo ok
