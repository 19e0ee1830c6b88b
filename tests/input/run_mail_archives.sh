#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fio logs attached to a mail as archives (base64 parts): a .tar.gz of two logs, a
# .zip, an .xz of one log and a gzip part without a file name are members of the mail,
# named by their file names, and read as those archives alone; a 7-Zip attachment
# gets its "not read" error; an image and a text attachment are no members (the text
# is the mail's own, read with it). A mail whose text has no run but whose
# attachments do is no "no fio run found" and exits 0; one with nothing exits 1. The
# same mail inside a tar: members below the mail's own name.
. "$(dirname "$0")/lib.sh"

python3 - "$FSC_CORPUS" <<'PY'
import email.mime.application as ma, email.mime.image as mi, email.mime.multipart as mm, email.mime.text as mt
import gzip, io, lzma, os, sys, tarfile, zipfile
corpus = sys.argv[1]
a = open(os.path.join(corpus, "fio-3.33", "a_randread_psync.txt"), "rb").read()
b = open(os.path.join(corpus, "fio-2.1.10", "b_randwrite_4jobs_nogroup.txt"), "rb").read()
open("a.txt", "wb").write(a)
open("b.txt", "wb").write(b)
tgz = io.BytesIO()
with tarfile.open(fileobj=tgz, mode="w:gz") as t:
    for name, data in (("logs/a.txt", a), ("logs/b.txt", b)):
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
zb = io.BytesIO()
with zipfile.ZipFile(zb, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("run-a.txt", a)
m = mm.MIMEMultipart()
m["From"] = "tester@example.org"
m["Subject"] = "the logs"
m.attach(mt.MIMEText("Hi,\n\nthe logs are attached.\n", "plain"))
parts = [(tgz.getvalue(), "gzip", "fio-logs.tar.gz"), (zb.getvalue(), "zip", "runs.zip"),
         (lzma.compress(b), "x-xz", "b.log.xz"), (gzip.compress(a), "octet-stream", None)]
for data, sub, name in parts:
    p = ma.MIMEApplication(data, sub)
    if name:
        p.add_header("Content-Disposition", "attachment", filename=name)
    m.attach(p)
m.attach(mi.MIMEImage(b"\x89PNG\r\n\x1a\n" + bytes(100), "png"))
note = mt.MIMEText("just a note\n", "plain", "utf-8")
note.add_header("Content-Disposition", "attachment", filename="note.txt")
m.attach(note)
open("logs.eml", "w").write(m.as_string())
bare = mm.MIMEMultipart()
bare["Subject"] = "a picture"
bare.attach(mi.MIMEImage(b"\x89PNG\r\n\x1a\n" + bytes(100), "png"))
open("picture.eml", "w").write(bare.as_string())
odd = mm.MIMEMultipart()
odd["Subject"] = "old logs"
p = ma.MIMEApplication(b"7z\xbc\xaf\x27\x1c" + bytes(200), "x-7z-compressed")
p.add_header("Content-Disposition", "attachment", filename="old.7z")
odd.attach(p)
open("odd.eml", "w").write(odd.as_string())
with tarfile.open("thread.tar", "w") as t:
    t.add("logs.eml", "mails/logs.eml")
PY

"$FIOSCOPE" parse --jsonl logs.eml > out.jsonl 2> err.txt || fail "exit status $?: $(cat err.txt)"
grep -q "no fio run" err.txt && fail "the mail's text was reported: $(cat err.txt)"
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'TXT'
logs.eml|None|no-runs|0|None
logs.eml|fio-logs.tar.gz/logs/a.txt|ok|1|None
logs.eml|fio-logs.tar.gz/logs/b.txt|ok|1|None
logs.eml|runs.zip/run-a.txt|ok|1|None
logs.eml|b.log.xz|ok|1|None
logs.eml|attachment-4|ok|1|None
TXT
# each attachment's runs are those of its log read on its own
"$FIOSCOPE" parse --jsonl a.txt b.txt > own.jsonl
python3 - out.jsonl own.jsonl <<'PY' || fail "attached runs differ from the logs'"
import json, sys
runs = lambda f: [r for r in map(json.loads, open(f)) if "jobs" in r]
got, own = runs(sys.argv[1]), runs(sys.argv[2])
a, b = own
want = [a, b, a, b, a]
assert len(got) == len(want), len(got)
for g, w in zip(got, want):
    assert g["jobs"] == w["jobs"] and g["groups"] == w["groups"] and g["disk_util"] == w["disk_util"], g["id"]
assert got[0]["id"] == "logs.eml:fio-logs.tar.gz/logs/a.txt#1", got[0]["id"]
PY
"$FIOSCOPE" parse --jsonl picture.eml > /dev/null 2> err.txt && fail "a mail with no run must fail"
grep -qx "fioscope: picture.eml: no fio run found" err.txt || fail "picture.eml: $(cat err.txt)"
"$FIOSCOPE" parse --jsonl odd.eml > out.jsonl 2> err.txt && fail "an unread attachment must fail"
grep -qx "fioscope: odd.eml: old.7z: 7-Zip archive: not read (fioscope reads tar, zip, gzip, xz, zstd and bzip2)" err.txt ||
    fail "odd.eml: $(cat err.txt)"
"$FIOSCOPE" parse --jsonl thread.tar > out.jsonl 2> err.txt || fail "thread.tar: exit status $?: $(cat err.txt)"
manifest < out.jsonl | grep -c "^thread.tar|mails/logs.eml/fio-logs.tar.gz/logs/a.txt|ok|1|" > /dev/null ||
    fail "thread.tar: $(manifest < out.jsonl)"
# a mailbox of six mails, each with an .xz of a 400 KB log (ratio about 4): 2.4 MB
# expanded from a 1.3 MB file is no bomb. The whole input's ratio counts the mbox's
# own bytes; counted from nothing, the fourth attachment on gave "decompression limit"
python3 - <<'PY'
import email.mime.application as ma, email.mime.multipart as mm, email.mime.text as mt, lzma, random
rnd = random.Random(7)
with open("many.mbox", "w") as f:
    for i in range(6):
        log = "".join("%d, %d, 0, 4096, 0\n" % (t * 100, rnd.randint(1, 10**9)) for t in range(16000)).encode()
        m = mm.MIMEMultipart()
        m["From"] = "tester@example.org"
        m["Subject"] = "run %d" % i
        m.attach(mt.MIMEText("the bw log of run %d\n" % i, "plain"))
        p = ma.MIMEApplication(lzma.compress(log), "x-xz")
        p.add_header("Content-Disposition", "attachment", filename="job_bw.%d.log.xz" % i)
        m.attach(p)
        f.write("From tester@example.org Sat Dec  5 10:00:00 2026\n" + m.as_string() + "\n")
PY
"$FIOSCOPE" parse --jsonl --fail-on=none many.mbox > out.jsonl 2> err.txt || fail "many.mbox: exit status $?: $(cat err.txt)"
grep "decompression limit" err.txt out.jsonl && fail "many.mbox: an attachment taken for a bomb"
[ "$(manifest < out.jsonl | grep -c '|job_bw\.[0-5]\.log\.xz|')" = 6 ] || fail "many.mbox: $(manifest < out.jsonl)"
echo "a mail's attached archives: members"
