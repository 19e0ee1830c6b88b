#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two runs side by side, as people compare them: `paste a b`, `diff -y -W 300 a b`
and `sdiff -w 300 a b` of two fio texts of the version battery (2.0.15 to 3.33) must
parse to the runs of a, then those of b, with the same jobs, groups and disk stats as
each text alone (sidebyside.c).

usage: side_by_side.py FIOSCOPE CORPUS_DIR WORK_DIR
"""
import os
import subprocess
import sys

from battery import battery_texts, numbers
from battery import parse as parse_with

fioscope, corpus, work = sys.argv[1], sys.argv[2], sys.argv[3]


def parse(path):
    return parse_with(fioscope, path)


def read_lines(path):
    lines = open(path, encoding="utf-8", errors="surrogateescape").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def paste(a, b):
    la, lb = read_lines(a), read_lines(b)
    n = max(len(la), len(lb))
    la += [""] * (n - len(la))
    lb += [""] * (n - len(lb))
    return "".join(x + "\t" + y + "\n" for x, y in zip(la, lb))


def tool(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, errors="surrogateescape").stdout


layouts = {"paste": paste,
           "diff -y": lambda a, b: tool("diff", "-y", "-W", "300", a, b),
           "sdiff": lambda a, b: tool("sdiff", "-w", "300", a, b)}

os.makedirs(work, exist_ok=True)
fail = checked = 0
for texts in battery_texts(corpus):
    for a, b in zip(texts[0::2], texts[1::2]):
        ra, rb = parse(a), parse(b)
        if not ra or not rb:
            continue
        want = numbers(ra + rb)
        for name, make in layouts.items():
            path = os.path.join(work, "pair.txt")
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(make(a, b))
            got = parse(path)
            checked += 1
            if numbers(got) != want:
                fail += 1
                print(f"FAIL: {a} and {b} as {name}: {len(got)} runs, {len(ra) + len(rb)} wanted")
print(f"side by side: {checked} pairs compared, {fail} failed")
sys.exit(1 if fail else 0)
