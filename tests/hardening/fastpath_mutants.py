#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Structured mutants of real fio text, parsed with the fast path and with the
grammar alone (FIOSCOPE_NO_FASTPATH=1): the two outputs must be byte-identical.

libFuzzer (fuzz_fastpath) flips bytes; the fast path's own risks are in its number
and unit lexers, its spacing and its line shapes, which random flips seldom reach
with a line still whole. Here each mutant changes a real document the way other
fio versions, other locales and pastes do: numbers of every length and notation,
unit and scale words, the spacing around '=' ',' ':' and '[', letter case, lines
cut, doubled or dropped, a byte inserted or deleted inside a number.

usage: fastpath_mutants.py FIOSCOPE SEED_DIR... [--count N] [--seed S] [--keep DIR]
Exits 1 and names the mutants whose outputs differ (kept in --keep or a temp dir).
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

NUMBER = re.compile(rb"(?<![A-Za-z_])[0-9]+(?:\.[0-9]+)?")
UNIT_WORDS = [b"KiB", b"MiB", b"GiB", b"TiB", b"PiB", b"EiB", b"kB", b"KB", b"MB", b"GB", b"TB", b"PB",
              b"B", b"k", b"K", b"M", b"G", b"T", b"P", b"Ki", b"Mi", b"Gi", b"usec", b"msec", b"nsec",
              b"sec", b"ms", b"us", b"ns", b"s", b"m", b"", b"%", b"KiB/s", b"MB/s", b"bit/s", b"Mbit/s"]
UNIT = re.compile(rb"(?<=[0-9])(KiB|MiB|GiB|TiB|PiB|kB|KB|MB|GB|TB|k|K|M|G|T|P|B)(?=[/ ,()\]]|$)")
TIME_UNIT = re.compile(rb"\((usec|msec|nsec|sec|ms|us|ns)\)")


def number_variant(rng, old):
    choices = [
        lambda: b"0",
        lambda: b"00" + old,
        lambda: old + b"0",
        lambda: b"9" * rng.randint(10, 30),
        lambda: b"18446744073709551615",
        lambda: b"18446744073709551616",
        lambda: b"9007199254740993",
        lambda: b"4294967296",
        lambda: b"2147483648",
        lambda: old + b"." + b"9" * rng.randint(1, 20),
        lambda: b"0." + b"0" * rng.randint(1, 12) + b"1",
        lambda: old.split(b".")[0] + b".",
        lambda: b"." + old.split(b".")[-1],
        lambda: old + b"e" + str(rng.randint(-30, 310)).encode(),
        lambda: old + b"E+3",
        lambda: b"-" + old,
        lambda: b"+" + old,
        lambda: old.replace(b".", b","),
        lambda: old[:1] + b"," + old[1:] if len(old) > 1 else old,
        lambda: old[:-1] if len(old) > 1 else b"",
        lambda: b"nan",
        lambda: b"inf",
        lambda: b"0x1f",
        lambda: str(rng.randint(0, 10 ** rng.randint(1, 19))).encode(),
        lambda: str(round(rng.random() * 10 ** rng.randint(0, 8), rng.randint(1, 6))).encode(),
        lambda: old + b" ",
        lambda: b" " + old,
    ]
    return rng.choice(choices)()


def mutate_line(rng, line):
    kind = rng.randrange(14)
    if kind <= 4:  # a number, in place
        nums = list(NUMBER.finditer(line))
        if nums:
            m = rng.choice(nums)
            return line[:m.start()] + number_variant(rng, m.group()) + line[m.end():]
    if kind == 5:  # a size or scale word
        units = list(UNIT.finditer(line))
        if units:
            m = rng.choice(units)
            return line[:m.start()] + rng.choice(UNIT_WORDS) + line[m.end():]
    if kind == 6:  # a time unit
        m = TIME_UNIT.search(line)
        if m:
            return line[:m.start(1)] + rng.choice(UNIT_WORDS) + line[m.end(1):]
    if kind == 7:  # spacing around punctuation
        spots = [i for i, c in enumerate(line) if c in b"=,:[]()/"]
        if spots:
            i = rng.choice(spots)
            op = rng.randrange(4)
            if op == 0:
                return line[:i] + b" " + line[i:]
            if op == 1:
                return line[:i + 1] + b" " + line[i + 1:]
            if op == 2 and i + 1 < len(line) and line[i + 1:i + 2] == b" ":
                return line[:i + 1] + line[i + 2:]
            return line[:i] + line[i + 1:]
    if kind == 8:  # letter case of a word
        words = list(re.finditer(rb"[A-Za-z]+", line))
        if words:
            m = rng.choice(words)
            w = m.group()
            w = w.upper() if rng.random() < 0.5 else w.lower() if rng.random() < 0.5 else w.capitalize()
            return line[:m.start()] + w + line[m.end():]
    if kind == 9 and len(line) > 2:  # cut inside the line
        return line[:rng.randrange(1, len(line))]
    if kind == 10:  # indentation
        stripped = line.lstrip(b" ")
        return b" " * rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 12]) + stripped
    if kind == 11 and len(line) > 1:  # one printable byte inserted
        i = rng.randrange(len(line))
        return line[:i] + bytes([rng.choice(b"0123456789.,=:;()[]%/-+ abcdefghijklmnopqrstuvwxyzKMGT|")]) + line[i:]
    if kind == 12 and len(line) > 1:  # one byte deleted
        i = rng.randrange(len(line))
        return line[:i] + line[i + 1:]
    if kind == 13:  # trailing blanks
        return line + b" " * rng.randint(1, 3)
    return line


def mutate(rng, doc):
    lines = doc.split(b"\n")
    for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
        i = rng.randrange(len(lines))
        op = rng.randrange(10)
        if op < 8:
            lines[i] = mutate_line(rng, lines[i])
        elif op == 8:
            lines.insert(i, lines[i])  # a line doubled
        elif len(lines) > 1:
            del lines[i]  # a line dropped
    return b"\n".join(lines)


def seeds(dirs):
    out = []
    for d in dirs:
        for root, dirs, files in os.walk(d):
            dirs.sort()  # the same mutants for a seed on every machine
            for f in sorted(files):
                p = os.path.join(root, f)
                if os.path.getsize(p) > 256 << 10:
                    continue
                with open(p, "rb") as fh:
                    b = fh.read()
                # fio's normal text (the fast path's input), whatever else the file holds
                if b"groupid=" in b or b"(g=" in b:
                    out.append(b)
    return out


def parse(fioscope, path, fast):
    env = dict(os.environ)
    env.pop("FIOSCOPE_NO_FASTPATH", None)
    if not fast:
        env["FIOSCOPE_NO_FASTPATH"] = "1"
    r = subprocess.run([fioscope, "parse", "--jsonl", "-j", "1", path], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    return r.returncode, r.stdout, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fioscope")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--keep")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    docs = seeds(a.dirs)
    if not docs:
        print("no seed documents with fio normal text", file=sys.stderr)
        return 2
    work = a.keep or tempfile.mkdtemp(prefix="fsc-mutants-")
    os.makedirs(work, exist_ok=True)
    names = []
    for i in range(a.count):
        name = os.path.join(work, "m%06d.txt" % i)
        with open(name, "wb") as fh:
            fh.write(mutate(rng, rng.choice(docs)))
        names.append(name)
    # one process per path, in batches of files: each file's output stands alone
    differ = []
    batch = 200
    for s in range(0, len(names), batch):
        part = os.path.join(work, "batch%05d" % s)
        os.makedirs(part, exist_ok=True)
        for n in names[s:s + batch]:
            os.replace(n, os.path.join(part, os.path.basename(n)))
        fast, slow = parse(a.fioscope, part, True), parse(a.fioscope, part, False)
        if fast == slow:
            shutil.rmtree(part) if not a.keep else None
            continue
        # which files: one at a time
        for n in sorted(os.listdir(part)):
            p = os.path.join(part, n)
            if parse(a.fioscope, p, True) != parse(a.fioscope, p, False):
                differ.append(p)
    print("%d mutants of %d documents, %d differ" % (len(names), len(docs), len(differ)))
    for p in differ[:50]:
        print("  differs:", p)
    if not differ and not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
