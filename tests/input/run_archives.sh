#!/usr/bin/env bash
# Archives of every kind, built here and read in place: tar (plain, gz, xz, zst, bz2),
# zip, single compressed files, nested archives, junk mixed with good logs, member
# names "../x" and "/abs", magic bytes winning over extensions.
source "$(dirname "$0")/lib.sh"

C=$FSC_CORPUS/fio-3.33
cp "$C/g_json.json" one.json             # 1 run: job randread, read io_bytes 91213824
cp "$C/g_json_group.json" two.json       # 1 run
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 8)' > junk.bin

tar cf plain.tar one.json two.json
tar czf t.tar.gz one.json two.json
tar cJf t.tar.xz one.json two.json
tar --zstd -cf t.tar.zst one.json two.json
tar cjf t.tar.bz2 one.json two.json
python3 - <<'PY'
import tarfile, zipfile
with zipfile.ZipFile("t.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.write("one.json", "logs/one.json")
    z.write("two.json", "logs/two.json")
# names that must be reported as given, never used as paths
with tarfile.open("evil.tar", "w") as t:
    for name, src in (("../x", "one.json"), ("/abs/y", "two.json")):
        info = tarfile.TarInfo(name)  # add() would strip the leading "/"
        data = open(src, "rb").read()
        info.size = len(data)
        t.addfile(info, open(src, "rb"))
PY
gzip -c one.json > one.json.gz
xz -c one.json > one.json.xz
zstd -q -c one.json > one.json.zst
bzip2 -c one.json > one.json.bz2
cp t.tar.gz looks-like-text.txt          # magic bytes decide, not the extension
cp one.json not-really.gz

mkdir n && cp t.tar.gz n/inner.tgz && cp t.zip n/inner.zip && cp one.json.xz n/
tar cf nested.tar -C n inner.tgz inner.zip one.json.xz
gzip -c nested.tar > nested.tar.gz
python3 -c 'import zipfile; zipfile.ZipFile("deep.zip", "w").write("nested.tar.gz")'
tar cf mixed.tar one.json junk.bin two.json

inputs=(plain.tar t.tar.gz t.tar.xz t.tar.zst t.tar.bz2 t.zip one.json.gz one.json.xz
        one.json.zst one.json.bz2 looks-like-text.txt not-really.gz deep.zip evil.tar)
"$FIOSCOPE" parse --jsonl -q -j 2 "${inputs[@]}" > out.jsonl || fail "exit $? on good archives"
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EXP'
plain.tar|one.json|ok|1|None
plain.tar|two.json|ok|1|None
t.tar.gz|one.json|ok|1|None
t.tar.gz|two.json|ok|1|None
t.tar.xz|one.json|ok|1|None
t.tar.xz|two.json|ok|1|None
t.tar.zst|one.json|ok|1|None
t.tar.zst|two.json|ok|1|None
t.tar.bz2|one.json|ok|1|None
t.tar.bz2|two.json|ok|1|None
t.zip|logs/one.json|ok|1|None
t.zip|logs/two.json|ok|1|None
one.json.gz|None|ok|1|None
one.json.xz|None|ok|1|None
one.json.zst|None|ok|1|None
one.json.bz2|None|ok|1|None
looks-like-text.txt|one.json|ok|1|None
looks-like-text.txt|two.json|ok|1|None
not-really.gz|None|ok|1|None
deep.zip|nested.tar.gz/inner.tgz/one.json|ok|1|None
deep.zip|nested.tar.gz/inner.tgz/two.json|ok|1|None
deep.zip|nested.tar.gz/inner.zip/logs/one.json|ok|1|None
deep.zip|nested.tar.gz/inner.zip/logs/two.json|ok|1|None
deep.zip|nested.tar.gz/one.json.xz|ok|1|None
evil.tar|../x|ok|1|None
evil.tar|/abs/y|ok|1|None
EXP
[ -e ../x ] || [ -e /abs/y ] && fail "a member name was used as a path"

# runs carry their member and the numbers of the document inside the archive
python3 - out.jsonl <<'PY' || fail "run sources or values are wrong"
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if not l.startswith('{"input"')]
assert len(runs) == 26, len(runs)
deep = [r for r in runs if r["source"]["path"] == "deep.zip"]
assert [r["source"]["member"] for r in deep][0] == "nested.tar.gz/inner.tgz/one.json"
r = deep[0]
assert r["source"]["format"] == "json" and r["source"]["fio_version"] == "fio-3.33"
job = r["jobs"][0]
assert job["jobname"] == "randread" and job["read"]["io_bytes"] == 91213824, job["read"]["io_bytes"]
evil = [r for r in runs if r["source"]["member"] == "../x"]
assert evil and evil[0]["id"].startswith("evil.tar"), evil[0]["id"]
PY

# junk between good logs: an error entry with the reason, the others still read
set +e
"$FIOSCOPE" parse --jsonl -q -j 2 mixed.tar > mixed.jsonl; rc=$?
set -e
[ "$rc" = 1 ] || fail "mixed.tar: exit $rc, want 1"
manifest < mixed.jsonl > got.txt
expect_manifest got.txt <<'EXP'
mixed.tar|one.json|ok|1|None
mixed.tar|junk.bin|error|0|binary data: neither text nor a known archive or compressed format
mixed.tar|two.json|ok|1|None
EXP
"$FIOSCOPE" parse --jsonl -q --fail-on=no-runs mixed.tar > /dev/null || fail "--fail-on=no-runs must ignore errors"

# archives nested deeper than the cap: reported, not opened
cp one.json.gz d0
for i in 1 2 3 4 5 6 7 8 9; do tar cf "d$i" "d$((i - 1))"; done
"$FIOSCOPE" parse --jsonl -q d9 > deep.jsonl && fail "too deep must fail"
manifest < deep.jsonl > got.txt
expect_manifest got.txt <<'EXP'
d9|d8/d7/d6/d5/d4/d3/d2/d1|error|0|archive nested more than 8 levels deep: not opened
EXP

# a damaged archive: what was readable is kept, the damage is an error entry
head -c $(($(stat -c %s t.tar.gz) / 2)) t.tar.gz > cut.tar.gz
"$FIOSCOPE" parse --jsonl -q cut.tar.gz > cut.jsonl && fail "damaged archive must fail"
manifest < cut.jsonl > got.txt
expect_manifest got.txt <<'EXP'
cut.tar.gz|None|error|0|unreadable archive: truncated gzip input
EXP
# archives without magic (v7 tar, an empty tar), links in a tar, a gzip of nothing
tar --format=v7 -cf v7.tar one.json
tar cf empty.tar --files-from /dev/null
ln one.json hard.json && ln -s one.json soft.json
tar cf links.tar one.json hard.json soft.json
: | gzip > nothing.gz
"$FIOSCOPE" parse --jsonl -q --fail-on=error v7.tar empty.tar links.tar nothing.gz > odd.jsonl ||
    fail "odd archives: exit $?"
manifest < odd.jsonl > got.txt
expect_manifest got.txt <<'EXP'
v7.tar|one.json|ok|1|None
empty.tar|None|no-runs|0|empty archive
links.tar|one.json|ok|1|None
links.tar|hard.json|no-runs|0|hard link to one.json (read there)
links.tar|soft.json|no-runs|0|symbolic link to one.json (not followed)
nothing.gz|None|no-runs|0|empty file
EXP
# nothing but NUL bytes: an empty tar to libarchive, but a log a crash left unwritten
# unless it is named as a tar (one byte and a megabyte; inside an archive too)
head -c 1 /dev/zero > one-nul.log
head -c 1048576 /dev/zero > crash.log
tar cf nuls.tar crash.log
head -c 10240 /dev/zero > zeros.tar
"$FIOSCOPE" parse --jsonl -q one-nul.log crash.log nuls.tar zeros.tar > nuls.jsonl && fail "NULs: no runs, exit 1"
manifest < nuls.jsonl > got.txt
expect_manifest got.txt <<'EXP'
one-nul.log|None|no-runs|0|only NUL bytes (1): nothing was written in it
crash.log|None|no-runs|0|only NUL bytes (1048576): nothing was written in it
nuls.tar|crash.log|no-runs|0|only NUL bytes (1048576): nothing was written in it
zeros.tar|None|no-runs|0|empty archive
EXP
echo ok
