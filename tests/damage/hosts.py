#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two hosts' fio output with each host's name before its lines, as pdsh and clush
("node-1: ", "alpha: ", "10.0.0.5: ", "db1.example.com: "), GNU parallel --tag
("gpu-a<TAB>"), docker compose ("bench-fio-1  | ") and kubectl logs --prefix
("[pod/fio-0/fio] ") write it: the two reports
one after the other, interleaved a line at a time, and interleaved in chunks of 1 to
12 lines (a buffer at a time). Every host's runs must read as its text alone does,
every job named by its host (`hostname`), and the fast path must agree with the
grammar (FIOSCOPE_NO_FASTPATH=1).

usage: hosts.py FIOSCOPE CORPUS_DIR WORK_DIR
"""
import json
import os
import random
import subprocess
import sys

fioscope, corpus, work = sys.argv[1], sys.argv[2], sys.argv[3]


def runs(path, env=None):
    e = dict(os.environ)
    e.update(env or {})
    out = subprocess.run([fioscope, "parse", "--jsonl", path], capture_output=True, text=True, env=e).stdout
    return [json.loads(l) for l in out.splitlines() if '"jobs"' in l]


def numbers(rs, host=None):
    return [{"jobs": [dict(j, hostname=host) if host else j for j in r["jobs"]], "groups": r.get("groups"),
             "disk_util": r.get("disk_util")} for r in rs]


texts = []
for d in sorted(os.listdir(corpus)):
    if d.startswith("fio-") and not d.endswith("oracle"):
        texts += [os.path.join(corpus, d, f) for f in sorted(os.listdir(os.path.join(corpus, d)))
                  if f.endswith(".txt")]
rng = random.Random(7)
hosts = [("node-1", "node-2", "{}: "), ("alpha", "beta", "{}: "), ("10.0.0.5", "10.0.0.6", "{}: "),
         ("db1.example.com", "web-2", "{}: "), ("gpu-a", "db1.example.com", "{}\t"),
         ("bench-fio-1", "bench-fio-2", "{}  | "), ("fio-0", "fio-7f9c", "[pod/{}/fio] ")]
os.makedirs(work, exist_ok=True)
fails = checked = 0
for i, t in enumerate(texts):
    u = texts[(i * 7 + 3) % len(texts)]
    if t == u:
        continue
    a = open(t, encoding="utf-8", errors="surrogateescape").read().rstrip("\n").split("\n")
    b = open(u, encoding="utf-8", errors="surrogateescape").read().rstrip("\n").split("\n")
    ra, rb = runs(t), runs(u)
    if not ra or not rb:
        continue
    for k, (ha, hb, mark) in enumerate(hosts):
        mode = ("block", "line", "chunk")[(i + k) % 3]
        la, lb = [mark.format(ha) + l for l in a], [mark.format(hb) + l for l in b]
        if mode == "block":
            out = la + lb
        else:
            out, ia, ib = [], 0, 0
            while ia < len(la) or ib < len(lb):
                n = 1 if mode == "line" else rng.randint(1, 12)
                out += la[ia:ia + n]
                ia += n
                n = 1 if mode == "line" else rng.randint(1, 12)
                out += lb[ib:ib + n]
                ib += n
        path = os.path.join(work, "hosts.txt")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write("\n".join(out) + "\n")
        got = runs(path)
        checked += 1
        if numbers(got) != numbers(ra, ha) + numbers(rb, hb):
            fails += 1
            print(f"FAIL: {t} on {ha} and {u} on {hb}, {mode}: {len(got)} runs, {len(ra) + len(rb)} wanted")
        elif runs(path, {"FIOSCOPE_NO_FASTPATH": "1"}) != got:
            fails += 1
            print(f"FAIL: {t} on {ha} and {u} on {hb}, {mode}: the fast path and the grammar differ")
print(f"hosts: {checked} texts of two hosts compared, {fails} failed")
sys.exit(1 if fails else 0)
