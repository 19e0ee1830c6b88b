#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a run takes from the text above it (the headings of its context and label, the
# document's title, the fio command or job file shown before it) crosses the cuts of a
# huge file read in pieces: each piece hands the headings in force at its end and the
# command found upward from there on to the next (fsc_carry, src/input/relay.c). Small
# pieces (FIOSCOPE_PIECE_BYTES) put many cuts just below headings, titles and
# commands; the runs must be byte for byte those of the whole text, at -j 1 and -j 2,
# with the workers reading their pieces or the reading thread reading them all.
. "$(dirname "$0")/lib.sh"
SEEDS="$FSC_SOURCE_DIR/../shared/seeds"

# the three seed articles, over and over: one outline runs on across them
for i in 1 2 3 4 5 6 7 8 9 10; do cat "$SEEDS"/*.txt; done > seeds.txt
# the same articles as mails in an mbox
for i in 1 2 3 4 5 6 7 8 9 10; do
    for f in "$SEEDS"/*.txt; do
        printf 'From bench@example.org Mon Nov 30 10:0%d:00 2026\nSubject: fio results %d\n\n' "$i" "$i"
        cat "$f"
        printf '\n'
    done
done > mails.mbox
# a CI log: a title, day headings, test sections of several shapes around fio 3.33
# runs (a command right above, a command parted from its run by a blank line, a job
# file, runs back to back under a caption, a numbered heading without a command)
python3 - "$FSC_CORPUS" ci.log <<'PY'
import glob, os, sys
corpus, out = sys.argv[1], sys.argv[2]
runs = []
for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33", "*.txt"))):
    runs.append((os.path.basename(f)[:-4], open(f).read().rstrip("\n")))
o = ["fio nightly results", ""]
k = 0
for day in range(1, 16):
    o += ["## nightly 2026-11-%02d" % day, ""]
    for t, (name, text) in enumerate(runs):
        k += 1
        o.append("=== test %s ===" % name)
        if k % 5 == 0:
            o += ["### %d. %s" % (k, name), "", "$ fio --name=%s --rw=randread --bs=4k" % name, text]
        elif k % 5 == 1:
            o += ["**%s**" % name, "$ fio --name=%s --bs=64k \\" % name, "    --iodepth=8", "", text]
        elif k % 5 == 2:
            o += ["[global]", "ioengine=libaio", "", "[%s]" % name, "rw=randwrite", "", text]
        elif k % 5 == 3:
            o += ["", "Results of %s" % name, "", text, text]
        else:
            o += ["", "%d.%d %s" % (day, t + 1, name), "", text]
        o.append("")
open(out, "w").write("\n".join(o) + "\n")
PY
# a CI log whose runs all stand right under their command: no run boundary a piece
# may end at (fio's report, then a job definition), so the pieces end after blank
# lines, best after a report's disk stats (before, at line ends inside runs)
python3 - "$FSC_CORPUS" ci_glued.log <<'PY'
import glob, os, sys
corpus, out = sys.argv[1], sys.argv[2]
o = ["# CI nightly", ""]
for day in range(1, 21):
    o += ["## nightly 2026-11-%02d" % day, ""]
    for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33", "*.txt"))):
        name = os.path.basename(f)[:-4]
        o += ["=== test %s ===" % name, "$ fio --name=%s --rw=randread" % name, open(f).read().rstrip("\n"), ""]
open(out, "w").write("\n".join(o) + "\n")
PY

# notes in Markdown: headings written over two lines, fenced blocks whose '# ' lines
# are no headings, runs without disk stats (no report end to cut after: the pieces end
# after blank lines before text that fio's report does not hold)
python3 - "$FSC_CORPUS" notes.md <<'PY'
import glob, os, re, sys
corpus, out = sys.argv[1], sys.argv[2]
runs = []
for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33", "*.txt"))):
    t = open(f).read().rstrip("\n")
    t = re.sub(r"\nDisk stats \(read/write\):\n(  .*\n?)*", "\n", t).rstrip("\n")
    runs.append((os.path.basename(f)[:-4], t))
o = ["Storage notes", ""]
k = 0
for part in range(1, 25):
    o += ["## Part %d" % part, "", "## Part %d, continued" % part, ""]
    for name, text in runs:
        k += 1
        if k % 3 == 0:
            o += ["```", "# %s, as run" % name, "$ fio --name=%s --rw=read" % name, text, "```", ""]
        elif k % 3 == 1:
            o += ["**%s**" % name, "", "**%s, second line**" % name, "", "$ fio --name=%s" % name, text, ""]
        else:
            o += ["Run %d" % k, "", "# fio --name=%s --bs=1m" % name, text, ""]
open(out, "w").write("\n".join(o) + "\n")
PY

# a wiki page in Confluence's storage format: each run in a code macro, on the line of
# the paragraph above it ("Results of the run:"), below another paragraph. Only the
# page's first paragraph is a heading (its title): the others stand right under a
# line of text. A piece that begins at such a line knows what the line above it was
# (fsc_carry): a line of text, not the top of a document, so its first paragraph is
# no caption there either
python3 - "$FSC_CORPUS" wiki.xml <<'PY'
import glob, os, sys
corpus, out = sys.argv[1], sys.argv[2]
o = []
for rep in range(25):
    for f in sorted(glob.glob(os.path.join(corpus, "fio-3.33", "*.txt"))):
        lines = open(f).read().rstrip("\n").split("\n")
        o.append('<p>Results of the run:</p><ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[' + lines[0])
        o += lines[1:-1]
        o.append(lines[-1] + "]]></ac:plain-text-body></ac:structured-macro><p>Next steps</p>")
open(out, "w").write("\n".join(o) + "\n")
PY

for f in seeds.txt mails.mbox ci.log ci_glued.log notes.md wiki.xml; do
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$f" > whole.jsonl
    python3 - whole.jsonl "$f" <<'PY' || fail "$f: too few runs, or runs with a context, in the whole text"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
with_context = sum(1 for r in runs if r["context"])
if sys.argv[2] == "wiki.xml":  # the title heads the first run alone
    assert len(runs) >= 300 and with_context == 1 and runs[0]["context"] == ["Results of the run"], with_context
else:
    assert len(runs) >= 300 and with_context * 2 >= len(runs), len(runs)
PY
    for piece in 16384 65536; do
        for j in 1 2; do
            for reads in worker reader; do
                if [ $reads = reader ]; then export FIOSCOPE_READER_READS=1; else unset FIOSCOPE_READER_READS; fi
                FIOSCOPE_PIECE_BYTES=$piece "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" "$f" > pieces.jsonl
                cmp -s whole.jsonl pieces.jsonl ||
                    fail "$f in pieces of $piece bytes (-j $j, $reads reads) differs from the whole text"
            done
        done
    done
    unset FIOSCOPE_READER_READS
done
# a pipe is read in pieces too (the reading thread cuts them)
cat ci.log | "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 - > whole.jsonl
cat ci.log | FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 - > pieces.jsonl
cmp -s whole.jsonl pieces.jsonl || fail "ci.log from a pipe in pieces differs from the whole text"
# the document form (runs kept as runs, not rendered on the workers)
"$FIOSCOPE" parse -q --fail-on=none -j 1 ci.log > whole.json
FIOSCOPE_PIECE_BYTES=65536 "$FIOSCOPE" parse -q --fail-on=none -j 2 ci.log > pieces.json
cmp -s whole.json pieces.json || fail "ci.log document in pieces differs from the whole text's"
