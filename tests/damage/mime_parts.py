#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio's text in a mail's base64 parts, as Gmail and Outlook send it: each text of the
version battery (fio 2.0.15 to 3.33) attached to a mail (its part base64 with a UTF-8
charset, the attachment's name its runs' context), as the whole body of a mail with CR
LF line ends (Outlook's), in ISO-8859-1, as the text/plain part of a text and HTML
alternative (Gmail's in base64, Thunderbird's quoted-printable; the HTML part, the same
runs again as markup, is not read), attached to such a mail, and two mails with an
attachment each in one mbox, must parse to the runs of the text itself: the same jobs,
groups and disk stats (normalize.c, mime64.c). The text gzipped and attached beside it
is the mail's member (input/mail.c): its runs once more, after the mail's own.

usage: mime_parts.py FIOSCOPE CORPUS_DIR WORK_DIR
"""
import email.charset
import email.mime.application
import email.mime.multipart
import email.mime.text
import email.policy
import gzip
import os
import sys

from battery import battery_texts, numbers
from battery import parse as parse_with

fioscope, corpus, work = sys.argv[1], sys.argv[2], sys.argv[3]


def parse(path):
    return parse_with(fioscope, path)


def attached(text, name, subject):
    m = email.mime.multipart.MIMEMultipart()
    m["From"] = "tester@example.org"
    m["Subject"] = subject
    m.attach(email.mime.text.MIMEText("Hi,\n\nthe numbers are attached.\n\nThanks\n", "plain"))
    part = email.mime.text.MIMEText(text, "plain", "utf-8")
    part.add_header("Content-Disposition", "attachment", filename=name)
    m.attach(part)
    packed = email.mime.application.MIMEApplication(gzip.compress(text.encode()), "gzip")
    packed.add_header("Content-Disposition", "attachment", filename=name + ".gz")
    m.attach(packed)
    return m


def alternative(text, charset="utf-8"):
    m = email.mime.multipart.MIMEMultipart("alternative")
    m["Subject"] = "fio results"
    m.attach(email.mime.text.MIMEText("Results:\n\n" + text, "plain", charset))
    markup = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")
    m.attach(email.mime.text.MIMEText('<div dir="ltr">Results:<br><br>' + markup + "</div>", "html", charset))
    return m


def with_attachment(text):
    """Gmail's mail with an attachment: the note as text and HTML alternatives, then the file."""
    m = email.mime.multipart.MIMEMultipart()
    m["Subject"] = "fio results"
    m.attach(alternative("See the attached log.\n"))
    part = email.mime.text.MIMEText(text, "plain", "utf-8")
    part.add_header("Content-Disposition", "attachment", filename="fio.log")
    m.attach(part)
    return m.as_bytes()


def body_crlf(text):
    m = email.mime.text.MIMEText(text.replace("\n", "\r\n"), "plain", "utf-8")
    m["Subject"] = "fio results"
    return m.as_bytes(policy=email.policy.SMTP)


def latin1(text):
    m = email.mime.text.MIMEText("", "plain", "iso-8859-1")
    del m["Content-Transfer-Encoding"]
    m["Content-Transfer-Encoding"] = "base64"
    m.set_payload(email.base64mime.body_encode(text.encode("latin-1", errors="replace")))
    return m.as_bytes()


def mbox(a, b):
    out = b""
    for i, (text, name) in enumerate(((a, "before.log"), (b, "after.log"))):
        out += b"From tester@example.org Mon Nov 30 10:00:0%d 2026\n" % i
        out += attached(text, name, "run %d" % i).as_bytes() + b"\n"
    return out


quoted = email.charset.Charset("utf-8")  # Thunderbird's: quoted-printable
quoted.body_encoding = email.charset.QP
os.makedirs(work, exist_ok=True)
fail = checked = 0
texts = [t for folder in battery_texts(corpus) for t in folder]
path = os.path.join(work, "mail.eml")
for i, t in enumerate(texts):
    text = open(t, encoding="utf-8", errors="replace").read()
    runs = parse(t)
    if not runs:
        continue
    want = numbers(runs)
    kinds = {"attachment": attached(text, "fio.log", "results").as_bytes(), "body": body_crlf(text),
             "alternative": alternative(text).as_bytes(), "alternative_qp": alternative(text, quoted).as_bytes(),
             "with_attachment": with_attachment(text)}
    if text.isascii():
        kinds["latin1"] = latin1(text)
    for name, data in kinds.items():
        with open(path, "wb") as f:
            f.write(data)
        got = parse(path)
        checked += 1
        if name == "attachment":  # and the gzip member's
            packed = [r for r in got if r["source"]["member"] == "fio.log.gz"]
            got = [r for r in got if r["source"]["member"] is None]
            if numbers(packed) != want:
                fail += 1
                print(f"FAIL: {t} as {name}: {len(packed)} runs in fio.log.gz, {len(runs)} wanted")
        if numbers(got) != want:
            fail += 1
            print(f"FAIL: {t} as {name}: {len(got)} runs, {len(runs)} wanted")
        elif name in ("attachment", "with_attachment") and any(r["context"][:1] != ["fio.log"] for r in got):
            fail += 1
            print(f"FAIL: {t} as {name}: context {got[0]['context']}, not the attachment's name")
    if i % 2:  # the text before and this one, a mail each, in one mbox
        other = texts[i - 1]
        before = parse(other)
        if before:
            with open(path, "wb") as f:
                f.write(mbox(open(other, encoding="utf-8", errors="replace").read(), text))
            got = parse(path)
            checked += 1
            if numbers(got) != numbers(before + runs + before + runs):  # the texts, then their gzip copies
                fail += 1
                print(f"FAIL: {other} and {t} in an mbox: {len(got)} runs, {len(before) + len(runs)} wanted")
print(f"mime parts: {checked} mails compared, {fail} failed")
sys.exit(1 if fail else 0)
