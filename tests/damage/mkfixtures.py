#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Make the damage fixtures in fixtures/ from fio 3.33 oracle texts: NAME.in.txt is the
# damaged document, NAME.expected.txt the normalized lines as "ORIG<TAB>TEXT" (ORIG is
# the 1-based line number in NAME.in.txt), computed here independently of fioscope.
# Usage: mkfixtures.py CORPUS_DIR OUT_DIR
import re
import sys

corpus, out = sys.argv[1], sys.argv[2]


def oracle_lines(name):
    """fio's normal text of an oracle file: the lines before the JSON and after it."""
    lines = open(f"{corpus}/fio-3.33-oracle/{name}.normal+json.txt", encoding="utf-8").read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("{"))
    end = next(i for i, l in enumerate(lines) if i > start and l == "}")
    text = lines[:start] + lines[end + 1:]
    while text and text[-1] == "":
        text.pop()
    return text


def write(name, damaged, expected):
    with open(f"{out}/{name}.in.txt", "wb") as f:
        f.write(damaged)
    with open(f"{out}/{name}.expected.txt", "w", encoding="utf-8", newline="\n") as f:
        for orig, text in expected:
            f.write(f"{orig}\t{text}\n")


# 1. tabs and Unicode spaces: indentation as tabs, NBSP after colons, an em space
lines = oracle_lines("psync-randread")
dam, exp = [], []
for i, l in enumerate(lines, 1):
    body = l.lstrip(" ")
    ind = len(l) - len(body)
    d = "\t" * (ind // 2) + " " * (ind % 2) + body.replace(": ", ":\u00a0", 1).replace(", ", ",\u2003", 1)
    dam.append(d)
    exp.append((i, d.replace("\t", " ").replace("\u00a0", " ").replace("\u2003", " ")))
write("tabs_nbsp", ("\n".join(dam) + "\n").encode(), exp)

# 2. a GitHub Actions log: every line behind a timestamp, and a job banner
lines = oracle_lines("uring-seq")
dam = ["2026-11-30T02:47:00.0000000Z ##[group]Run fio"]
exp = [(1, "##[group]Run fio")]
for i, l in enumerate(lines, 2):
    dam.append(f"2026-11-30T02:47:{i % 60:02d}.{i:07d}Z {l}")
    exp.append((i, l))
write("ci_timestamps", ("\n".join(dam) + "\n").encode(), exp)

# 3. a quoted-printable mail: "=" as =3D, lines longer than 76 bytes soft-broken
lines = oracle_lines("pctlist")
dam = ["From: someone@example.org", "Subject: fio numbers", "MIME-Version: 1.0",
       "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable", ""]
exp = [(i, l) for i, l in enumerate(dam, 1)]
for l in lines:
    q = l.replace("=", "=3D")
    parts = []
    while len(q) > 75:
        cut = 75
        while q[cut - 2] == "=" or q[cut - 1] == "=":  # never split an =XX escape
            cut -= 1
        parts.append(q[:cut] + "=")
        q = q[cut:]
    parts.append(q)
    exp.append((len(dam) + 1, l))
    dam.extend(parts)
write("qp_mail", ("\n".join(dam) + "\n").encode(), exp)

# 4. a BOM and zero-width characters pasted from a web page into the text
lines = oracle_lines("grouped-3j")
dam, exp = [], []
for i, l in enumerate(lines, 1):
    d = l
    if i % 3 == 0:
        d = d.replace(" (", "\u200b (", 1)
    if i % 4 == 0:
        d = "\u2060" + d
    dam.append(d)
    exp.append((i, l))
write("bom_zerowidth", ("\ufeff" + "\n".join(dam) + "\n").encode(), exp)

# 5. an HTML page: <pre> block with entities, several lines joined by <br>
lines = oracle_lines("two-groups")
esc = lambda s: s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
dam = ["<!DOCTYPE html>", "<html><head><title>fio</title></head><body>", "<h2>Two groups</h2>", "<p>Output:</p>"]
exp = [(1, "<!DOCTYPE html>"), (2, "fio"), (3, "Two groups"), (4, "Output:")]
k = 0
while k < len(lines):
    chunk = lines[k:k + 3]
    row = len(dam) + 1
    dam.append(("<pre><code>" if k == 0 else "") + "<br>".join(esc(c) for c in chunk) + "<br>")
    exp.extend((row, c) for c in chunk if c.strip() != "")
    k += 3
dam.append("</code></pre></body></html>")
exp.append((len(dam), ""))  # a line of markup only stays as an empty line
write("html_page", ("\n".join(dam) + "\n").encode(), exp)
