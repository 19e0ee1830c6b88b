#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Jobs named as fio's own words: each text of the version battery (fio 2.0.15 to 3.33)
with its first job renamed (its definition, layout and result header lines) "fio" (the
word fio's messages begin with: "fio: io_u error ..."), "read", "write", "cpu", "lat",
"Run", "Disk", "Jobs" or "Starting" must parse to the runs of the text itself with
that job name: the same jobs, options, groups and disk stats, no warning more. Texts
that also hold fio's JSON or terse output of the run (which keep the old name) are left
out.

usage: job_names.py FIOSCOPE CORPUS_DIR
"""
import json
import re
import sys
import tempfile

from battery import battery_texts, numbers
from battery import parse as parse_with

fioscope, corpus = sys.argv[1], sys.argv[2]
names = ["fio", "read", "write", "cpu", "lat", "Run", "Disk", "Jobs", "Starting"]
fail = checked = 0
with tempfile.TemporaryDirectory() as work:
    path = work + "/renamed.txt"
    for t in (t for folder in battery_texts(corpus) for t in folder):
        text = open(t, encoding="utf-8", errors="replace").read()
        first = re.search(r"^(\S+): \((?:g|groupid)=", text, re.M)
        if not first or '"jobname"' in text or ";fio-" in text:
            continue
        old = first.group(1)
        runs = parse_with(fioscope, t)
        if not runs:
            continue
        for new in names:
            renamed = re.sub(r"^(\s*)" + re.escape(old) + r"(?=: (?:\((?:g|groupid)=|Laying out))",
                             lambda m: m.group(1) + new, text, flags=re.M)
            with open(path, "w", encoding="utf-8") as f:
                f.write(renamed)
            got = parse_with(fioscope, path)
            want = json.loads(numbers(runs).replace('"jobname": "%s"' % old, '"jobname": "%s"' % new))
            checked += 1
            if json.loads(numbers(got)) != want or sum(len(r["warnings"]) for r in got) > sum(
                    len(r["warnings"]) for r in runs):
                fail += 1
                print(f"FAIL: {t} with its job named {new}: {len(got)} runs, {len(runs)} wanted")
print(f"job names: {checked} texts compared, {fail} failed")
sys.exit(1 if fail else 0)
