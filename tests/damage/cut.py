#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Lines cut short: every fio normal text of the version battery (2.0.15 to 3.33), its
long lines cut at one width (a pager's chopped lines, a terminal without wrap, cut -c)
or ended with an ellipsis after the kept part (a status view, a web UI). The values a
cut took are lost, but no value may come out other than the whole text's (a cut
"avg=4517" of "avg=45173.25" is dropped, never read), and of each kind at least a
floor of the values must be kept (what a cut leaves: the values before it).

usage: cut.py FIOSCOPE CORPUS_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import battery  # noqa: E402

fioscope, corpus, work = sys.argv[1], sys.argv[2], sys.argv[3]


def cut_at(width):
    return lambda lines: [l[:width] for l in lines]


def ellipsis_at(width, mark):
    return lambda lines: [l[:width - len(mark)] + mark if len(l) > width else l for l in lines]


# kind: (damage, the share of the values that must be kept, %)
kinds = {"cut60": (cut_at(60), 74.0), "cut80": (cut_at(80), 94.0), "cut100": (cut_at(100), 95.0),
         "cut120": (cut_at(120), 97.0), "ellipsis80": (ellipsis_at(80, "\u2026"), 94.0),
         "dots72": (ellipsis_at(72, "..."), 86.0)}
# where a value may differ, and why
known = {
    # fio <= 2.16 prints KB of kb_base; the job's IOPS line that tells 1000 from 1024
    # is cut, and the group line is read in the default 1024s
    ("fio-2.0.15/h_kb_base1000.txt", "cut60"), ("fio-2.1.10/h_kb_base1000.txt", "cut60"),
    ("fio-2.15/h_kb_base1000.txt", "cut60"),
    # two lines reach the 80th column, and neither reads as a cut one to the grammar:
    # the cut "stdev=32953" of the bw line is not told from a whole value
    ("fio-2.1.10/i_unit_base1_bits.txt", "cut80"),
}


def parse(path):
    out = subprocess.run([fioscope, "parse", "--jsonl", path], capture_output=True, text=True)
    return [json.loads(l) for l in out.stdout.splitlines() if '"jobs"' in l[:400]]


def slip_kept(want, got):
    """Is got the value fio printed where the whole text put its rounding slip right
    (numslip.h: N units printed for N+1, the value beside it cut away)?"""
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (want, got)) or not 0 < got < want:
        return False
    n = got / (want - got)
    return 1 <= round(n) <= 9999 and abs(n - round(n)) < 1e-6


def values(runs):
    return dict(battery.leaves([{k: r.get(k) for k in ("jobs", "groups", "disk_util")} for r in runs]))


texts = []
for d in sorted(os.listdir(corpus)):
    if d.startswith("fio-") and not d.endswith("oracle"):
        texts += [os.path.join(d, f) for f in sorted(os.listdir(os.path.join(corpus, d))) if f.endswith(".txt")]

os.makedirs(work, exist_ok=True)
fail = 0
kept = {k: 0 for k in kinds}
total = {k: 0 for k in kinds}
for t in texts:
    lines = open(os.path.join(corpus, t), encoding="utf-8", errors="surrogateescape").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    want = values(parse(os.path.join(corpus, t)))
    if not want:
        continue
    for name, (damage, _) in kinds.items():
        path = os.path.join(work, name + ".txt")
        with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write("\n".join(damage(lines)) + "\n")
        got = values(parse(path))
        total[name] += len(want)
        kept[name] += sum(1 for k, v in want.items() if got.get(k) == v)
        wrong = [(k, v, got[k]) for k, v in want.items()
                 if got.get(k) is not None and v is not None and got[k] != v and not slip_kept(v, got[k])]
        if wrong and (t, name) not in known:
            fail += 1
            print(f"FAIL: {t} cut as {name}: {len(wrong)} values differ, e.g. {wrong[0]}")
for name, (_, floor) in kinds.items():
    share = 100.0 * kept[name] / total[name]
    print(f"{name:10s} {kept[name]}/{total[name]} values kept = {share:.1f}% (floor {floor}%)")
    if share < floor:
        fail += 1
        print(f"FAIL: {name} keeps {share:.1f}% of the values, below {floor}%")
print(f"cut: {len(kinds)} kinds, {fail} failed")
sys.exit(1 if fail else 0)
