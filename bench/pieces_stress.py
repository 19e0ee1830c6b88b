#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Differential stress of huge files read in pieces: the workers' own reading
(read_ranges, the default at -j 2 and up) against the reading thread reading every
piece (FIOSCOPE_READER_READS=1), on random mixes of clean and damaged corpus text,
fio JSON (indented and flat), terse blocks and junk lines, cut in small pieces
(FIOSCOPE_PIECE_BYTES) at -j 2 and -j 3. Without damaged JSON (TR=0 and JUNK without
braces) the two must be byte-identical; with it they may choose other cuts, and each
differing file is kept (fail*.txt) with how close each way is to the whole file.

usage: bench/pieces_stress.py FIOSCOPE SECONDS [SEED]
env:   FSC_CORPUS (default ../shared/corpus), TR (share of parts cut short, 0.1),
       JUNK (bytes of junk lines), OUT (work folder, a new temporary one)"""
import glob, json, os, random, shutil, subprocess, sys, tempfile, time
from collections import Counter

fio, seconds = os.path.abspath(sys.argv[1]), float(sys.argv[2])
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
here = os.path.dirname(os.path.abspath(__file__))
corpus = os.environ.get("FSC_CORPUS", os.path.join(here, "..", "..", "shared", "corpus"))
trunc = float(os.environ.get("TR", "0.1"))
junk = os.environ.get("JUNK", "{}[]\"\n abc:=;,(g=0)").encode()
texts = glob.glob(f"{corpus}/fio-*/*.txt")
damaged = glob.glob(f"{corpus}/damaged/*.txt")
jsons = glob.glob(f"{corpus}/fio-*/*.json")
terses = glob.glob(f"{corpus}/fio-*/g_terse*.terse")
flat = []
for f in jsons[:6]:
    try:
        flat.append((json.dumps(json.load(open(f)), indent=0) + "\n").encode())
    except ValueError:
        pass
os.chdir(os.environ.get("OUT") or tempfile.mkdtemp(prefix="pieces_stress."))


def parse(path, pb, j, **env):
    """fioscope's JSONL of path in pieces of pb bytes (None: read whole, as usual)."""
    e = dict(os.environ, **env)
    if pb:
        e["FIOSCOPE_PIECE_BYTES"] = str(pb)
    try:
        r = subprocess.run([fio, "parse", "--jsonl", "-q", "--fail-on=none", "-j", j, path],
                           env=e, capture_output=True, timeout=60)
        return r.returncode, r.stdout
    except subprocess.TimeoutExpired:
        return "HANG", b""


def runs(out):
    return Counter((r["source"]["first_line"], json.dumps(r.get("jobs")), json.dumps(r.get("context")),
                    len(r.get("warnings", [])))
                   for r in map(json.loads, out.splitlines()) if "input" not in r)


deadline, n, differ, closer = time.time() + seconds, 0, 0, Counter()
while time.time() < deadline:
    parts = []
    for _ in range(rng.randint(5, 150)):
        r = rng.random()
        if r < 0.35:
            b = open(rng.choice(texts), "rb").read()
        elif r < 0.55:
            b = open(rng.choice(damaged), "rb").read()
        elif r < 0.7:
            b = open(rng.choice(jsons), "rb").read()
        elif r < 0.78 and flat:
            b = rng.choice(flat)
        elif r < 0.88:
            b = open(rng.choice(terses), "rb").read() + b"\n"
        else:
            b = bytes(rng.choice(junk) for _ in range(rng.randint(1, 400)))
        if rng.random() < trunc:
            b = b[: rng.randint(0, len(b))]
        parts.append(b)
    open("in.txt", "wb").write(b"".join(parts))
    pb = rng.choice([4096, 7000, 16384, 40000, 65536])
    ref = parse("in.txt", pb, "2", FIOSCOPE_READER_READS="1")
    for j in ("2", "3"):
        got = parse("in.txt", pb, j)
        n += 1
        if got == ref:
            continue
        differ += 1
        kept = f"fail{differ}_{pb}_j{j}.txt"
        shutil.copyfile("in.txt", kept)
        whole = runs(parse(kept, None, "1")[1])
        a, b = sum((runs(ref[1]) & whole).values()), sum((runs(got[1]) & whole).values())
        closer["workers" if b > a else "reader" if a > b else "same"] += 1
        print(f"differ: pieces of {pb}, -j {j}, {got[0]} / {ref[0]}; runs as whole: reader {a}, workers {b}",
              flush=True)
        break
print(f"compared {n}, differ {differ}; closer to the whole file: {dict(closer)} (in {os.getcwd()})")
