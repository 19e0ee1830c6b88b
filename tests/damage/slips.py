#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Slips of copying and logging around fio's text, on every normal text of the version
battery (fio 2.0.15 to 3.33):

  doubled   each line of the text in turn written twice (a paste, a terminal, a log
            shipper that doubled it): the same jobs, groups and disk stats as the
            text, a warning where a doubled line was read once;
  levels    each line logged with a stamp and a severity that changes from line to
            line (log4j's padded levels, Python logging's "WARNING:bench:", glog's
            "W1207 ..."): the same numbers as the text;
  cut inside  one result line cut inside a number, the text going on below it (a line
            whose end a paste, an editor or a view lost): as cut off, a warning
            where values are lost;
  cut off   the text stopped inside a number of one of its lines, no newline after it
            (a log copied while fio wrote it, a paste cut at a size limit): no number
            that differs from the text's (values lost, none wrong), and a warning
            that the text ends inside a line or a run. Not inside the last field of
            a line (a latency line's stdev, ...): cut there, it reads as a whole line.

usage: slips.py FIOSCOPE CORPUS_DIR WORK_DIR
"""
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import battery  # noqa: E402

fioscope, corpus, work = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def parse_many(paths):
    """{path: (runs, warnings)} of one fioscope call over all of paths."""
    got = {p: ([], []) for p in paths}
    for k in range(0, len(paths), 400):
        out = subprocess.run([fioscope, "parse", "--jsonl", "-q", *paths[k:k + 400]], capture_output=True,
                             text=True)
        for line in out.stdout.splitlines():
            o = json.loads(line)
            if "jobs" in o and o["source"]["path"] in got:
                runs, warns = got[o["source"]["path"]]
                runs.append({k: o.get(k) for k in ("jobs", "groups", "disk_util")})
                warns += [w["message"] for w in o["warnings"]]
    return got


def write(name, text):
    path = os.path.join(work, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


texts = [p for version in battery.battery_texts(corpus) for p in version]


def battery_modern(path):
    """A text of fio 2.17 or later (its units say their base)."""
    m = re.search(r"fio-(\d+)\.(\d+)", path)
    return bool(m) and (int(m.group(1)), int(m.group(2))) >= (2, 17)

clean = {}
for p in texts:
    with open(p, encoding="utf-8", errors="replace") as f:
        t = f.read()
    # fio's normal text alone (a document of JSON or terse beside it reads otherwise
    # cut); not a client/server text, whose servers print alike banners, which may
    # come twice
    if "groupid=" in t and "hostname=" not in t and "\n{" not in t and not re.search(r"^\d;fio-", t, re.M):
        clean[p] = t
base = parse_many(list(clean))

made = {}  # damaged path -> (clean path, kind, what)
rnd = random.Random(45)
for n, (p, t) in enumerate(sorted(clean.items())):
    lines = t.split("\n")
    for i, line in enumerate(lines):
        # every line of values and fio's own headers, doubled (noise such as "Laying out
        # IO file" is fio's to repeat)
        if line.strip() and ("=" in line or line.startswith(("Run status", "Disk stats", "fio-", "Starting"))):
            d = write("d%d_%d.txt" % (n, i), "\n".join(lines[:i + 1] + lines[i:]))
            made[d] = (p, "doubled", "line %d: %r" % (i + 1, line))
    for k, (fmt, levels) in enumerate([
            ("2026-12-07 09:41:%02d,%03d %-5s [runner] c.e.Bench - ", ("INFO", "WARN", "DEBUG", "ERROR")),
            ("%s:bench:", ("INFO", "WARNING", "DEBUG", "INFO", "INFO")),
            ("%s1207 09:41:%02d.%06d  4242 runner.cc:88] ", ("I", "W", "E", "I"))]):
        out = []
        for i, line in enumerate(lines):
            lv = levels[(i * 7 + n) % len(levels)]
            pre = (fmt % (i % 60, i * 37 % 1000, lv) if k == 0 else fmt % lv if k == 1 else
                   fmt % (lv, i % 60, i * 7919 % 1000000))
            out.append(pre + line)
        d = write("l%d_%d.txt" % (n, k), "\n".join(out))
        made[d] = (p, "levels", fmt)
    # cut off inside a number of a line of values, in the text's second half; not in the
    # field fio prints last on its line ("stdev=2" of "stdev=235768.35" reads as a
    # whole line: a gap the text cannot tell, cutline.c's ends_as_fio)
    def in_last_field(at):
        part = t[t.rfind("\n", 0, at) + 1:at + 1].split(", ")[-1]
        return re.match(r"(stdev|samples|minf|depth|dropped|short|iodepth|pid|error|flags|stddev)=", part)
    spots = [m.start() for m in re.finditer(r"[0-9](?=[0-9.])", t)
             if m.start() > len(t) // 2 and not in_last_field(m.start())]
    for k, at in enumerate(rnd.sample(spots, min(3, len(spots)))):
        d = write("c%d_%d.txt" % (n, k), t[:at + 1])
        made[d] = (p, "cut off", "at %d: %r" % (at + 1, t[max(0, at - 30):at + 1]))
    # one line cut inside a number, the text going on below it (a line whose end a
    # paste or an editor lost); a result line (indented), not in its last field. Not
    # the texts of kb_base=1000 before fio 2.17, whose units a direction line's IOPS
    # tells: cut, the group lines are read in 1024s (cut.py's known ones)
    inside = [at for at in re.finditer(r"[0-9](?=[0-9.])", t)
              if t[t.rfind("\n", 0, at.start()) + 1:][:1] == " " and not in_last_field(at.start())]
    if "kb_base1000" not in p or battery_modern(p):
        for k, m in enumerate(rnd.sample(inside, min(4, len(inside)))):
            at, end = m.start(), t.find("\n", m.start())
            d = write("i%d_%d.txt" % (n, k), t[:at + 1] + (t[end:] if end >= 0 else ""))
            made[d] = (p, "cut inside", "at %d: %r" % (at + 1, t[t.rfind("\n", 0, at) + 1:at + 1]))

got = parse_many(list(made))
counts = {}
for d, (p, kind, what) in made.items():
    counts[kind] = counts.get(kind, 0) + 1
    runs, warns = got[d]
    want = base[p][0]
    if kind in ("doubled", "levels"):
        if runs != want:
            failures.append("%s (%s, %s): numbers differ from the text's" % (os.path.basename(p), kind, what))
        elif kind == "doubled" and runs and not any("byte for byte" in w or "printed twice" in w for w in warns) \
                and any(d in w for w in warns for d in ("second", "not read")):
            failures.append("%s (doubled, %s): read with another warning: %s" % (os.path.basename(p), what, warns))
    else:
        # (an IOPS that fio's rounding slip put out is mended from the issued count,
        # numslip.c: a text cut off above that line keeps fio's printed number)
        have, ref = dict(battery.leaves(runs)), dict(battery.leaves(want))
        wrong = [k for k in have if k in ref and have[k] != ref[k] and not k.endswith("/iops")]
        if wrong:
            failures.append("%s (%s %s): %s read as %r, the text has %r" % (
                os.path.basename(p), kind, what, wrong[0], have[wrong[0]], ref[wrong[0]]))
        lost = any(k not in have for k in ref)
        if lost and runs and not any(m in w for w in warns for m in ("the text ends inside", "line cut short",
                                                                "cannot be read (cut short?)", "unrecognized line")):
            failures.append("%s (%s %s): values lost without a word" % (os.path.basename(p), kind, what))

for f in failures[:30]:
    print("FAIL", f)
print("slips: %s texts; %s; %d failed" % (len(clean), ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())),
                                          len(failures)))
sys.exit(1 if failures else 0)
