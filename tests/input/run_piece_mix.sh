#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A huge text read in pieces gives the runs of the whole text, byte for byte, when
# the text between its runs is of every kind at once: runs with and without their
# disk stats or preamble, interrupted ones, prose right under a report, labels and
# headings right above a job definition, progress lines after a report, fences,
# quoted, indented, time-stamped and client-prefixed runs, fio's JSON among them,
# paragraphs of markup glued to a job's line, CRLF; and runs in fences with a fio
# message under the closing fence, which the run above reads. The documents are drawn at
# random (a fixed seed): the cuts fall wherever the pieces' sizes put them, so each
# rule of where a piece may end is met by every kind. What the whole text reads is
# asserted too: every run found, and a run without disk stats ends at its group
# summary, not at the prose below it (which a wrap join took for its rest).
. "$(dirname "$0")/lib.sh"

python3 - "$FSC_CORPUS" <<'PY'
import glob, json, os, random, re, sys
corpus = sys.argv[1]
rnd = random.Random(20261206)
runs = []
for d in ("fio-2.0.15", "fio-2.1.10", "fio-2.15", "fio-2.21", "fio-3.0", "fio-3.13", "fio-3.33"):
    for f in sorted(glob.glob(os.path.join(corpus, d, "*.txt"))):
        t = open(f, encoding="utf-8", errors="replace").read().rstrip("\n")
        if not os.path.basename(f).startswith("g_") and "groupid=" in t and t.count("Run status group") == 1 \
                and "All clients" not in t:
            runs.append(t)
jsons = []
for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33-oracle", "*.txt"))):
    t = open(f).read()
    i = t.find("\n{\n")
    if i >= 0:
        jsons.append(t[i + 1:].rstrip("\n"))
words = "the a results run pool disk ssd test after before tuning with zfs ext4 xfs nvme raid notes".split()


def prose():
    return " ".join(rnd.choice(words) for _ in range(rnd.randint(2, 9))).capitalize()


def between(k):
    c = rnd.randint(0, 13)
    return [[], [""], [prose() for _ in range(rnd.randint(1, 3))], [prose(), ""], ["", prose() + ":"],
            [prose(), prose() + ":"], ["", "## " + prose(), ""], ["", "%d.%d %s" % (k % 7 + 1, k % 5 + 1, prose()), ""],
            ["$ fio --name=t%d --rw=randread --bs=4k" % k], ["", "**" + prose() + "**", ""],
            ["", "Jobs: 1 (f=1): [r(1)][100.0%][r=40MiB/s][r=10k IOPS][eta 00m:00s]"], [prose() + ".", "", prose() + ":"],
            ["```"], ["", "=" * 20, prose(), "=" * 20]][c]


def body():
    """a run's lines, and whether it ends at its group summary (no disk stats)"""
    if rnd.random() < 0.05:
        return jsons[rnd.randrange(len(jsons))].split("\n"), False
    t = rnd.choice(runs)
    r = rnd.random()
    bare = False
    if r < 0.3:
        t = re.sub(r"\n*Disk stats \(read/write\):\n(  .*\n?)*", "", t + "\n").rstrip("\n")
        bare = True
    L = t.split("\n")
    if 0.3 <= r < 0.4:
        k = next((i for i, l in enumerate(L) if l.startswith("Starting ")), None)
        if k is not None:
            L = L[:k + 1] + ["fio: terminating on signal 2"] + L[k + 1:]
    elif 0.4 <= r < 0.5:
        L = L[next(i for i, l in enumerate(L) if "groupid=" in l):]
    return L, bare


def wrapped(L):
    r = rnd.random()
    if r < 0.06:
        return ["> " + l if l else ">" for l in L], 0
    if r < 0.12:
        return ["```"] + L + ["```"], 1
    if r < 0.16:
        return ["    " + l if l else "" for l in L], 0
    if r < 0.20:
        return ["2026-11-30T10:%02d:00.123Z " % (i % 60) + l for i, l in enumerate(L)], 0
    if r < 0.23:  # fio's client: the server's text (the preamble) under its host's name
        k = next((i for i, l in enumerate(L) if "(groupid=" in l), 0)
        return ["<node1> " + l if l and i < k else l for i, l in enumerate(L)], 0
    return L, 0


for doc in range(6):
    out, bare_ends, n_runs, k, size = [], [], 0, 0, 0
    if rnd.random() < 0.5:
        out += [prose(), ""]
    while size < 240000:
        k += 1
        sep = between(k)
        L, bare = body()
        L, shift = wrapped(L)
        if rnd.random() < 0.05 and sep and sep[-1] and not sep[-1].startswith(("Jobs:", "```")):
            L = ["<p>" + sep[-1] + "</p>" + L[0]] + L[1:]  # a paragraph glued to the job's line
            sep = sep[:-1]
        if bare_ends and bare_ends[-1] == len(out) and any(l.startswith("Jobs:") for l in sep):
            # a progress line below a run is read as the run's (fio prints them as it runs)
            bare_ends[-1] = len(out) + 1 + max(i for i, l in enumerate(sep) if l.startswith("Jobs:"))
        out += sep
        if bare and not any(l.startswith(("> ", "    ", "2026-")) for l in L[-1:]):
            bare_ends.append(len(out) + len(L) - shift)  # its group summary's line (1-based)
        out += L
        n_runs += 1
        size += sum(len(x) + 1 for x in sep + L)
    eol = "\r\n" if doc == 5 else "\n"
    open("mix%d.txt" % doc, "w", newline="").write(eol.join(out) + eol)
    json.dump({"runs": n_runs, "bare_ends": bare_ends}, open("mix%d.json" % doc, "w"))
# runs in fences, each fence closed under the report and a fio message under it,
# which the run above reads (a piece must not begin between the fence and it)
out = []
for k in range(150):
    out += ["```"] + rnd.choice([r for r in runs if "Disk stats" in r]).split("\n") + ["```"]
    if k % 2:
        out.append("fio: terminating on signal 2")
open("mix6.txt", "w").write("\n".join(out) + "\n")
json.dump({"runs": 150, "bare_ends": [], "messages": 75}, open("mix6.json", "w"))
PY

for doc in 0 1 2 3 4 5 6; do
    f=mix$doc.txt
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$f" > whole.jsonl
    python3 - whole.jsonl mix$doc.json "$f" <<'PY' || fail "$f: the whole text does not read as written"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
want = json.load(open(sys.argv[2]))
assert len(runs) == want["runs"], (sys.argv[3], len(runs), want["runs"])
last = {r["source"]["last_line"] for r in runs}
missed = [b for b in want["bare_ends"] if b not in last]
assert not missed, (sys.argv[3], "runs without disk stats that do not end at their summary", missed[:5])
assert len(want["bare_ends"]) >= 5 or "messages" in want, want
told = sum(1 for r in runs for w in r["warnings"] if w["message"] == "fio: terminating on signal 2")
assert told == want.get("messages", told), (sys.argv[3], told)
PY
    for piece in 8192 19972; do
        for j in 1 2; do
            FIOSCOPE_PIECE_BYTES=$piece "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" "$f" > pieces.jsonl
            cmp -s whole.jsonl pieces.jsonl || fail "$f in pieces of $piece bytes (-j $j) differs from the whole text"
        done
    done
done
FIOSCOPE_READER_READS=1 FIOSCOPE_PIECE_BYTES=8192 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 mix0.txt > pieces.jsonl
"$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 mix0.txt | cmp -s - pieces.jsonl ||
    fail "mix0.txt in pieces read by the reading thread differs from the whole text"
echo ok
