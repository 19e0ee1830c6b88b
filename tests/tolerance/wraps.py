#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Lines wrapped at any width: fio's normal text of runs whose JSON fio wrote at the
same time is wrapped at every width from 40 to 200 columns (step STEP), the way a mail
client does (at the last space, the space dropped, no indentation on the rest) and the
way a terminal or `fold` does (a hard cut anywhere, inside brackets, numbers, units),
and each wrapped copy must read to fio's JSON by the oracle's rules (tests/oracle).
The whole document (fio's JSON and its text, as one paste) is wrapped the same ways,
and by words as Python's textwrap does (a word wider than a line cut where it is full),
and must read as the runs of the document unwrapped, with the same job names and
options (a long name or description cut by the wrap, in the text or inside a JSON
string, is read whole); so must the text alone, also indented by four spaces
before or after it was wrapped, quoted with "| " after it was wrapped (read to
fio's JSON), and with a log's prefix before it was wrapped.

usage: wraps.py FIOSCOPE STEP ORACLE_FILE...
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
import oracle_check as oc  # noqa: E402


INDENT = "    "
BAR = "| "
# a log's prefix: pdsh's host (a colon, as a job name's) for word wraps, a stamp and
# level for hard cuts
LOG_PREFIX = {"word": "node01: ", "hard": "12:10:43 INFO [stdout] "}
INDENT_STEP = int(os.environ.get("FSC_WRAPS_INDENT", "1"))



def normal_text(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("{"))
    end = next(i for i, l in enumerate(lines) if i > start and l == "}")
    return lines[:start] + lines[end + 1:]


def word_wrap(lines, w, cut_long=False):
    """A mail client: break at the last space before w; the break's space is lost.
    cut_long: as Python's textwrap does by default (break_long_words), a word wider
    than a line (a long job name or path) is cut where the line is full."""
    out = []
    for l in lines:
        ind = len(l) - len(l.lstrip(" "))
        cur = l[:ind]
        for word in l[ind:].split(" "):
            if cur.strip() and len(cur) + 1 + len(word) > w:
                if cut_long and len(word) > w and len(cur) + 1 < w:  # the word's head fills the line
                    k = w - len(cur) - 1
                    out.append(cur + " " + word[:k])
                    word = word[k:]
                else:
                    out.append(cur)
                cur = word
            elif cur.strip():
                cur += " " + word
            else:
                cur += word
            while cut_long and len(cur) > w:  # what is left of a word wider than a line
                out.append(cur[:w])
                cur = cur[w:]
        out.append(cur)
    return out


def long_word_wrap(lines, w):
    return word_wrap(lines, w, cut_long=True)


def hard_wrap(lines, w):
    """A terminal or fold -w: cut every w columns, wherever that falls."""
    out = []
    for l in lines:
        while len(l) > w:
            out.append(l[:w])
            l = l[w:]
        out.append(l)
    return out


def names(runs):
    return [[(j.get("jobname"), j.get("job options")) for j in r["jobs"]] for r in runs]


def check(exe, doc, fio):
    """The oracle's check of one wrapped copy (as oracle_check.py does for a file),
    and the copy's runs, job names and options."""
    out = subprocess.run([exe, "parse", "-q", doc], capture_output=True, check=False)
    c = oc.Checker(doc)
    all_runs = json.loads(out.stdout)["runs"]
    c.names = names(all_runs)
    runs = [r for r in all_runs if r["source"]["format"] == "normal"]
    if len(runs) != 1:
        c.errors.append("expected 1 normal-text run, found %d" % len(runs))
        return c
    fjobs = fio.get("jobs") or [j for j in fio.get("client_stats", []) if j["jobname"] != "All clients"]
    if len(runs[0]["jobs"]) != len(fjobs):
        c.errors.append("jobs: %d, fio has %d" % (len(runs[0]["jobs"]), len(fjobs)))
        return c
    gopts = fio.get("global options", {})
    for i, (o, t) in enumerate(zip(runs[0]["jobs"], fjobs)):
        opts = dict(gopts)
        opts.update(t.get("job options", {}))
        kinds = {"lat_ns"} if opts.get("lat_percentiles") == "1" else {"clat_ns"}
        if opts.get("slat_percentiles") == "1":
            kinds.add("slat_ns")
        if opts.get("clat_percentiles") == "1":
            kinds.add("clat_ns")
        oc.check_job(c, "jobs[%d]" % i, o, t, kinds)
    oc.check_disks(c, runs[0].get("disk_util", []), fio.get("disk_util", []))
    return c


def runs_and_names(exe, doc):
    out = subprocess.run([exe, "parse", "-q", doc], capture_output=True, check=False)
    return names(json.loads(out.stdout)["runs"])


def main():
    exe, step, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            whole = open(f, encoding="utf-8").read().split("\n")
            want = runs_and_names(exe, f)
            # and the widths that cut the first line's "<name>: (g=0)" inside its mark,
            # which tells a fio line where nothing has begun a run yet
            mark = whole[0].find(": (")
            marks = [w for w in (mark + 3, mark + 4) if mark >= 37]
            # and, for the paste indented before it was wrapped, those of its mark there
            indent_marks = [w + len(INDENT) for w in marks]
            widths = list(range(40, 201, step)) + marks + indent_marks
            # the text alone also at the widths that cut its first line into three:
            # the middle holds a rule's needle (", ioengine="), the rest may too
            # ("sync, iodepth=1")
            n = len(whole[0])
            thirds = [w for w in range((n + 2) // 3, (n + 2) // 3 + 3) if w >= 30]
            for style, wrap in (("word", word_wrap), ("hard", hard_wrap), ("long words cut", long_word_wrap)):
                for w in widths:
                    doc = os.path.join(tmp, "whole.txt")
                    with open(doc, "w") as d:
                        d.write("\n".join(wrap(whole, w)) + "\n")
                    got = runs_and_names(exe, doc)
                    total += 1
                    if got != want:
                        failed += 1
                        print("FAIL: %s, text and JSON wrapped (%s) at %d columns" % (f, style, w))
                        print("    runs, job names and options: %s, unwrapped: %s" % (got, want))
            lines = normal_text(f)
            text_only = os.path.join(tmp, "text.txt")
            with open(text_only, "w") as d:
                d.write("\n".join(lines) + "\n")
            want_text = runs_and_names(exe, text_only)
            fio = oc.modernize(oc.fio_json(f))
            ver = oc.version_tuple(fio.get("fio version"))
            oc.LEGACY["on"] = ver < (2, 99, 0)
            oc.LEGACY["num6"] = ver < (2, 17, 0)
            def oracle_copy(copy, what):
                """Does the copy read to fio's JSON, with the text's job names and options?"""
                with open(doc, "w") as d:
                    d.write("\n".join(copy) + "\n")
                c = check(exe, doc, fio)
                # the oracle check does not look at job options: they must be those
                # of the text unwrapped (a job definition cut into three lines at
                # its start, its first line's mark cut)
                if c.names != want_text:
                    c.errors.append("job names and options: %s, unwrapped: %s" % (c.names, want_text))
                if c.errors:
                    print("FAIL: %s %s" % (f, what))
                    for e in c.errors[:5]:
                        print("   ", e)
                return 1 if c.errors else 0

            doc = os.path.join(tmp, "wrapped.txt")
            for style, wrap in (("word", word_wrap), ("hard", hard_wrap)):
                for w in widths + thirds:
                    total += 1
                    failed += oracle_copy(wrap(lines, w), "wrapped (%s) at %d columns" % (style, w))
                    if w in thirds or not INDENT_STEP:
                        continue
                    # at the other widths, a mail quoted with "| " after it was
                    # wrapped (its numbers must be fio's still), and a log whose
                    # prefix was put on before it was wrapped
                    if (w - 40) % (2 * step) and w not in indent_marks:
                        total += 2
                        failed += oracle_copy([BAR + l for l in wrap(lines, w)],
                                              "wrapped (%s) at %d columns, then quoted '%s'" % (style, w, BAR))
                        with open(doc, "w") as d:
                            d.write("\n".join(wrap([LOG_PREFIX[style] + l for l in lines], w)) + "\n")
                        got = runs_and_names(exe, doc)
                        if got != want_text:
                            failed += 1
                            print("FAIL: %s prefixed '%s', then wrapped (%s) at %d columns"
                                  % (f, LOG_PREFIX[style], style, w))
                            print("    job names and options: %s, unwrapped: %s" % (got, want_text))
                        continue
                    # an indented paste (a Markdown code block, a mail's indented
                    # output), wrapped before it was indented or after (every other
                    # width; none in the sanitizer build: INDENT_STEP 0)
                    for order, copy in (("then indented", [INDENT + l for l in wrap(lines, w)]),
                                        ("after indenting", wrap([INDENT + l for l in lines], w))):
                        with open(doc, "w") as d:
                            d.write("\n".join(copy) + "\n")
                        got = runs_and_names(exe, doc)
                        total += 1
                        if got != want_text:
                            failed += 1
                            print("FAIL: %s wrapped (%s) at %d columns %s" % (f, style, w, order))
                            print("    job names and options: %s, unwrapped: %s" % (got, want_text))
    print("%d wrapped copies, %d read like fio's JSON, %d failed" % (total, total - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
