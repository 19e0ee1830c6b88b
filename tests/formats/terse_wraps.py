#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Terse records wrapped at any width: each fixture (fio's terse and JSON of one run)
is wrapped at every width from 40 to 200 columns (step STEP) the way a mail client
does (at spaces: a record has them only in a job name, `--name="my job"`, so it is
broken there and the rest of it stays whole) and the way a terminal or
`fold` does (a hard cut every so many bytes), alone and with its JSON; each copy must
read to the same terse run as the fixture unwrapped, job by job, with no warning.

usage: terse_wraps.py FIOSCOPE STEP FIXTURE...
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tolerance"))
import wraps  # noqa: E402


def terse_runs(exe, path):
    out = subprocess.run([exe, "parse", "-q", "--each-format", path], capture_output=True, check=False)
    return [r for r in json.loads(out.stdout)["runs"] if r["source"]["format"] == "terse"]


# the sanitizer build tries the first few of them (TERSE_WRAPS_EXACT_MAX)
EXACT_MAX = int(os.environ.get("TERSE_WRAPS_EXACT_MAX", "0"))


def main():
    exe, step, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        doc = os.path.join(tmp, "wrapped.txt")
        for f in files:
            lines = open(f, encoding="utf-8").read().split("\n")
            terse = lines[:next(i for i, l in enumerate(lines) if l.startswith("{"))]
            want = terse_runs(exe, f)
            if len(want) != 1:
                print("FAIL: %s: %d terse runs unwrapped" % (f, len(want)))
                failed += 1
                continue
            # and widths that divide a record's length: it then ends at a whole line, and
            # what follows it must not be taken for its last piece
            exact = sorted({d for rec in terse if rec for d in range(40, 401) if len(rec) % d == 0})
            exact = exact[:EXACT_MAX] if EXACT_MAX else exact
            for style, wrap in (("word", wraps.word_wrap), ("hard", wraps.hard_wrap)):
                for w in sorted(set(range(40, 201, step)) | set(exact)):
                    for what, src in (("terse", terse), ("terse and JSON", lines)):
                        # the records wrapped; fio's own messages among them ("fio: pid=1, err=28/...",
                        # continue_on_error) are prose, whose wrapping is not this test's
                        out = []
                        for line in src:
                            out += wrap([line], w) if not line.startswith("fio: ") else [line]
                        with open(doc, "w") as d:
                            d.write("\n".join(out) + "\n")
                        got = terse_runs(exe, doc)
                        total += 1
                        if not (len(got) == 1 and got[0]["jobs"] == want[0]["jobs"]
                                and got[0]["disk_util"] == want[0]["disk_util"]
                                and [x["message"] for x in got[0]["warnings"]] == [x["message"] for x in want[0]["warnings"]]):
                            failed += 1
                            print("FAIL: %s, %s wrapped (%s) at %d columns: %d terse runs, warnings %s" % (
                                f, what, style, w, len(got), got[0]["warnings"][:2] if got else []))
    print("%d wrapped copies, %d read as unwrapped, %d failed" % (total, total - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
