#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A mailing list's archive as one mbox, big enough to be read in pieces: mails whose
# text is quoted-printable (fio's '=' written "=3D", long lines broken with a soft
# "=" at 76 characters), format=flowed (long lines wrapped with a trailing space),
# multipart with a quoted-printable part or a base64 attachment, text and HTML
# alternatives (the HTML, the same runs again, not read), and plain mails whose fio
# lines end in spaces. Each mail's headers hold for its own text, up to the next
# mail: a cut inside a mail hands the mail's state on to the next piece
# (fsc_mail_state in the carry), which normalizes its text again when it begins
# inside such a mail. The runs must be byte for byte those of the whole text, and
# every run must be read whole. Mails with logs attached (.gz, .xz, .tar.gz): their
# attachments are members in pieces as read whole.
. "$(dirname "$0")/lib.sh"

python3 - "$FSC_CORPUS" archive.mbox <<'PY'
import base64, glob, os, quopri, sys, textwrap
corpus, out = sys.argv[1], sys.argv[2]
runs = [open(f).read().rstrip("\n") for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33", "*.txt")))]
mails = []
for k in range(240):
    # two or three runs a mail, so that pieces end inside mails too (between runs)
    run = "\n\nAnd the next one:\n\n".join(runs[(k + i) % len(runs)] for i in range(2 + k % 2))
    kind = [1, 3, 0, 3, 2, 0, 1, 1, 3][k % 9]  # a plain mail right after each other kind
    head = "From list%d@example.org %s Nov %2d 10:%02d:00 2026\nFrom: user%d <u%d@example.org>\nSubject: fio results %d\n" % (
        k, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][k % 7], k % 28 + 1, k % 60, k, k, k)
    body = "Here are the numbers of run %d, with an \u2019apostrophe\u2019.\n\n%s\n\nThanks,\nuser%d\n" % (k, run, k)
    if kind == 0:  # quoted-printable (Python's encoder: '=' as =3D, soft breaks at 76)
        enc = quopri.encodestring(body.encode("utf-8")).decode("ascii")
        mails.append(head + "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
                     "Content-Transfer-Encoding: quoted-printable\n\n" + enc)
    elif kind == 1:  # format=flowed: long lines wrapped, each part but the last ending in a space
        lines = []
        for line in body.split("\n"):
            if len(line) <= 72:
                lines.append(line)
                continue
            parts = textwrap.wrap(line, 72, drop_whitespace=False, replace_whitespace=False,
                                  break_long_words=False, break_on_hyphens=False)
            lines += [p if p.endswith(" ") or i == len(parts) - 1 else p + " " for i, p in enumerate(parts)]
        mails.append(head + "Content-Type: text/plain; charset=utf-8; format=flowed\n"
                     "Content-Transfer-Encoding: 8bit\n\n" + "\n".join(lines))
    elif kind == 2 and k % 4 == 1:  # multipart: the results attached in base64 (Gmail's, Outlook's)
        enc = base64.encodebytes(body.encode("utf-8")).decode("ascii").rstrip("\n")
        b = "----=_Part_%d" % k
        mails.append(head + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="%s"\n\n'
                     "--%s\nContent-Type: text/plain; charset=us-ascii\n\nSee the attachment.\n\n"
                     '--%s\nContent-Type: text/plain; charset=utf-8; name="run%d.log"\n'
                     'Content-Disposition: attachment; filename="run%d.log"\nContent-Transfer-Encoding: base64\n\n'
                     "%s\n--%s--\n" % (b, b, b, k, k, enc, b))
    elif kind == 2 and k % 4 == 3:  # the results as text and as HTML alternatives (Thunderbird's)
        enc = quopri.encodestring(body.encode("utf-8")).decode("ascii")
        markup = body.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>\n")
        html = quopri.encodestring(("<html><body>" + markup + "</body></html>").encode("utf-8")).decode("ascii")
        b = "------------alt%d" % k
        mails.append(head + 'MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="%s"\n\n'
                     "--%s\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
                     "%s\n--%s\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
                     "%s\n--%s--\n" % (b, b, enc, b, html, b))
    elif kind == 2:  # multipart: a short text part, then the results quoted-printable
        enc = quopri.encodestring(body.encode("utf-8")).decode("ascii")
        b = "----=_Part_%d" % k
        mails.append(head + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="%s"\n\n'
                     "--%s\nContent-Type: text/plain; charset=us-ascii\n\nSee below.\n\n"
                     "--%s\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
                     "%s\n--%s--\n" % (b, b, b, enc, b))
    else:  # plain: fio's lines with trailing spaces (editors, a Windows fio) that must not flow
        lines = [l + "  " if l.strip() and i % 2 else l for i, l in enumerate(body.split("\n"))]
        mails.append(head + "Content-Type: text/plain; charset=us-ascii\n\n" + "\n".join(lines))
open(out, "w").write("\n".join(mails) + "\n")
PY

"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 archive.mbox > whole.jsonl
# each mail's runs are the runs of its fio texts read on their own: the same jobs,
# numbers and all (only a paste's context and label differ)
python3 - "$FIOSCOPE" "$FSC_CORPUS" whole.jsonl <<'PY' || fail "the whole mbox: runs not read as their own text"
import glob, json, os, subprocess, sys
fsc, corpus, whole = sys.argv[1:4]
files = sorted(glob.glob(os.path.join(corpus, "fio-3.33", "*.txt")))
own = []
for f in files:
    out = subprocess.run([fsc, "parse", "--jsonl", "-q", "--fail-on=none", f], stdout=subprocess.PIPE, check=True).stdout
    rs = [r for r in map(json.loads, out.decode().splitlines()) if "input" not in r]
    assert len(rs) == 1, (f, len(rs))
    own.append(rs[0])
want = [(k + i) % len(files) for k in range(240) for i in range(2 + k % 2)]
runs = [r for r in map(json.loads, open(whole)) if "input" not in r]
assert len(runs) == len(want) == 600, len(runs)
for r, f in zip(runs, want):
    # the warnings of the text read on its own (fio 3.33's mixed line of
    # unified_rw_reporting=both), no other
    assert [w["message"] for w in r["warnings"]] == [w["message"] for w in own[f]["warnings"]], \
        (r["id"], r["warnings"][:2])
    assert r["jobs"] == own[f]["jobs"] and r["groups"] == own[f]["groups"], (r["id"], files[f])
PY
# file $1 in pieces of 16 KiB and 64 KiB, at -j 1 and -j 2, as whole.jsonl
same_in_pieces() {
    pieces_read_as_whole "$1" 16384 65536
}
same_in_pieces archive.mbox
# mails with their logs attached (a .gz, an .xz, a .tar.gz): in pieces the mailbox is
# read again for them after its text, so they are its members as when read whole
python3 - "$FSC_CORPUS" attached.mbox <<'PY'
import base64, glob, gzip, io, lzma, os, sys, tarfile
corpus, out = sys.argv[1], sys.argv[2]
runs = [open(f, "rb").read() for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33", "*.txt")))]
mails = []
for k in range(150):
    run = runs[k % len(runs)]
    head = "From list%d@example.org Mon Nov %2d 10:00:00 2026\nFrom: u%d@example.org\nSubject: run %d\n" % (k, k % 28 + 1, k, k)
    text = "The run:\n\n" + runs[(k + 3) % len(runs)].decode() + "\n"
    if k % 3:
        mails.append(head + "Content-Type: text/plain\n\n" + text)
        continue
    if k % 9 == 0:
        data, name = gzip.compress(run), "run%d.log.gz" % k
    elif k % 9 == 3:
        data, name = lzma.compress(run), "run%d.log.xz" % k
    else:
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as t:
            ti = tarfile.TarInfo("logs/run%d.txt" % k)
            ti.size = len(run)
            t.addfile(ti, io.BytesIO(run))
        data, name = buf.getvalue(), "logs%d.tar.gz" % k
    enc = base64.encodebytes(data).decode("ascii")
    b = "b%d" % k
    mails.append(head + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="%s"\n\n--%s\n'
                 "Content-Type: text/plain\n\n%s\n--%s\nContent-Type: application/octet-stream\n"
                 'Content-Disposition: attachment; filename="%s"\nContent-Transfer-Encoding: base64\n\n%s--%s--\n'
                 % (b, b, text, b, name, enc, b))
open(out, "w").write("\n".join(mails) + "\n")
PY
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 attached.mbox > whole.jsonl
[ "$(manifest < whole.jsonl | grep -c '^attached.mbox|run[0-9]*\.log\.[gx]z|ok|1|None$')" = 34 ] &&
    [ "$(manifest < whole.jsonl | grep -c '^attached.mbox|logs[0-9]*\.tar\.gz/logs/run[0-9]*\.txt|ok|1|None$')" = 16 ] ||
    fail "attached.mbox: $(manifest < whole.jsonl | sort | uniq -c | sort -rn | head -5)"
same_in_pieces attached.mbox
echo "240 mails, 600 runs: whole and in pieces the same; 150 mails with 50 attached logs: the same"
