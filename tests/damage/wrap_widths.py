#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A fio line's tail wrapped onto the next line, at every width from 60 to 100: fio
3.33's texts of EXPECT, wrapped by fold (a hard cut, inside words), fold -s (at the last
space, kept at the end of the first line) and a mail client (at the last space,
dropped); each also quoted with "> " after the wrap and indented before it. Each copy
must read as the unwrapped text (jobs, groups, disks), give EXPECT's values exactly,
and read the same without the fast path (FIOSCOPE_NO_FASTPATH=1).

usage: wrap_widths.py FIOSCOPE SOURCE_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tolerance"))
from wraps import normal_text, word_wrap  # noqa: E402  (a mail client's wrap)

fioscope, source, work = sys.argv[1], sys.argv[2], sys.argv[3]
FIXTURES = os.path.join(source, "tests", "oracle", "fixtures")

# fixture: (what must be read, as a path into the first run, and its value)
EXPECT = {
    # "(733MB/1001msec)" above "; 0 zone resets"
    "ramp-null-M": [("jobs.0.write.zone_resets", 0), ("jobs.0.write.iops", 2859000)],
    # "steadystate  : attained=yes, ..., iops=3207k, iops" above "mean dev=0.000%"
    "steadystate": [("jobs.0.steadystate.attained", 1), ("jobs.0.steadystate.criterion", "0.000%")],
    # at 79 columns the heads of the job and group lines are as wide as fio's own
    # "submit" and "complete" lines: a wrap, not lines cut at 79
    "end-fsync": [("groups.0.write.bw_bytes", 578813952), ("groups.0.write.runtime_max", 29),
                  ("jobs.0.job options.ioengine", "psync"), ("jobs.0.job options.iodepth", "1")],
}


def fold(lines, w, at_spaces):
    """fold -w W (-s): -s breaks after the last blank within W (the blank stays on the
    first line), else, as fold does, at W."""
    out = []
    for l in lines:
        while len(l) > w:
            k = l.rfind(" ", 0, w) + 1 if at_spaces else 0
            k = k if k > 0 else w
            out.append(l[:k])
            l = l[k:]
        out.append(l)
    return out


WRAPS = {"fold": lambda ls, w: fold(ls, w, False), "fold-s": lambda ls, w: fold(ls, w, True), "mail": word_wrap}
LAYOUTS = {
    "plain": lambda ls, wrap, w: wrap(ls, w),
    "quoted": lambda ls, wrap, w: ["> " + l for l in wrap(ls, w)],
    "indented": lambda ls, wrap, w: wrap(["    " + l for l in ls], w),
}


def parse(path, fast=True):
    env = dict(os.environ)
    if not fast:
        env["FIOSCOPE_NO_FASTPATH"] = "1"
    out = subprocess.run([fioscope, "parse", "--jsonl", path], capture_output=True, env=env, check=False)
    return out.stdout


def runs_of(jsonl):
    runs = [json.loads(l) for l in jsonl.decode().splitlines() if l.startswith('{"id"')]
    return [{k: r.get(k) for k in ("jobs", "groups", "disk_util")} for r in runs]


def value_at(runs, path):
    v = runs[0] if runs else None
    for k in path.split("."):
        if isinstance(v, list):
            v = v[int(k)] if k.isdigit() and int(k) < len(v) else None
        elif isinstance(v, dict):
            v = v.get(k)
    return v


def main():
    failed = total = 0
    for name, expect in EXPECT.items():
        lines = normal_text(os.path.join(FIXTURES, name + ".normal+json.txt"))
        clean = os.path.join(work, name + ".txt")
        with open(clean, "w") as f:
            f.write("\n".join(lines) + "\n")
        want = runs_of(parse(clean))
        for path, v in expect:
            if value_at(want, path) != v:
                print("FAIL: %s unwrapped: %s is %r, not %r" % (name, path, value_at(want, path), v))
                failed += 1
        for wname, wrap in WRAPS.items():
            for lname, layout in LAYOUTS.items():
                for w in range(60, 101):
                    copy = os.path.join(work, "%s.%s.%s.%d.txt" % (name, wname, lname, w))
                    with open(copy, "w") as f:
                        f.write("\n".join(layout(lines, wrap, w)) + "\n")
                    out = parse(copy)
                    got = runs_of(out)
                    total += 1
                    bad = [p for p, v in expect if value_at(got, p) != v]
                    if got != want or bad or out != parse(copy, fast=False):
                        failed += 1
                        why = ("values %s" % ", ".join("%s=%r" % (p, value_at(got, p)) for p in bad)) if bad else (
                            "other values" if got != want else "fast path differs")
                        print("FAIL: %s %s %s at %d: %s" % (name, wname, lname, w, why))
                    else:
                        os.unlink(copy)
    print("wrap_widths: %d copies, %d failed" % (total, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
