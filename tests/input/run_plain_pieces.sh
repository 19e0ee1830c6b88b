#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A text file below the size of huge files is read whole, and when it is fio's own
# output and nothing else (fsc_text_is_plain_fio) it is parsed in pieces cut between
# its runs, side by side. The output must be that of the whole text, byte for byte,
# for every fio version, normal text, JSON and terse. Text with a heading or a command
# line among fio's (ASCII or UTF-8, colour codes) goes in pieces as a huge text does;
# with markup it stays whole.
# FIOSCOPE_PIECE_BYTES=16384 makes files above 64 KiB huge (read in pieces anyway);
# FIOSCOPE_PLAIN_MIN sets from where plain text is cut (999999999: never).
. "$(dirname "$0")/lib.sh"

run() { # run FILE PLAIN_MIN JOBS [parse options...]
    local f=$1 min=$2 j=$3
    shift 3
    FIOSCOPE_PIECE_BYTES=16384 FIOSCOPE_PLAIN_MIN=$min "$FIOSCOPE" parse -q --fail-on=none -j "$j" "$@" "$f"
}
# how many documents the file was parsed as (one line each with FIOSCOPE_SHOW_MEMORY)
docs() {
    FIOSCOPE_SHOW_MEMORY=1 FIOSCOPE_PIECE_BYTES=16384 FIOSCOPE_PLAIN_MIN=20000 \
        "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 -o /dev/null "$1" 2>&1 | grep -c 'memory:' || true
}
# whole files from the list on stdin, concatenated up to 64000 bytes
fill() {
    local out=$1 f
    : > "$out"
    while read -r f; do
        [ $(($(stat -c %s "$out") + $(stat -c %s "$f"))) -le 64000 ] && cat "$f" >> "$out"
    done
    return 0
}
same() { # same FILE: every way of parsing it gives the bytes of the whole text
    local f=$1
    run "$f" 999999999 1 --jsonl > whole.jsonl
    for j in 1 2 4; do
        run "$f" 20000 "$j" --jsonl > cut.jsonl
        cmp -s whole.jsonl cut.jsonl || fail "$f: plain text cut in pieces (-j $j) differs from the whole"
    done
    run "$f" 999999999 2 > whole.json
    run "$f" 20000 2 > cut.json
    cmp -s whole.json cut.json || fail "$f: the JSON document of the pieces differs from the whole's"
    # a file is judged part by part and cut from the file; standard input is read
    # whole, judged and cut in memory: both ways give the whole's runs
    run - 999999999 1 --jsonl < "$f" > whole_in.jsonl
    run - 20000 2 --jsonl < "$f" > cut_in.jsonl
    cmp -s whole_in.jsonl cut_in.jsonl || fail "$f: plain text from stdin cut in pieces differs from the whole"
}

split=0
for d in "$FSC_CORPUS"/fio-*; do
    # one version's outputs side by side (different runs meet at each boundary), and
    # its first output repeated
    ls "$d"/*.txt | fill "mix_$(basename "$d").txt"
    first=$(ls "$d"/*.txt | head -1)
    for _ in $(seq 200); do echo "$first"; done | fill "rep_$(basename "$d").txt"
    for f in "mix_$(basename "$d").txt" "rep_$(basename "$d").txt"; do
        [ "$(stat -c %s "$f")" -gt 20000 ] || continue
        same "$f"
        [ "$(docs "$f")" -gt 1 ] && split=$((split + 1))
    done
done
# fio's JSON documents back to back (a cut only between documents), and blocks of
# terse records parted by blank lines (each block one run)
ls "$FSC_CORPUS"/fio-*/g_json*.json | fill json_mix.json
for _ in $(seq 40); do echo "$FSC_CORPUS/fio-3.33/g_json_group.json"; done | fill json_rep.json
for _ in $(seq 3); do ls "$FSC_CORPUS"/fio-*/g_terse*.terse; done | while read -r f; do cat "$f"; echo; done > terse_all
head -c 64000 terse_all | sed '$d' > terse_mix.terse
for f in json_mix.json json_rep.json terse_mix.terse; do
    [ "$(stat -c %s "$f")" -gt 20000 ] || fail "$f: too small to be cut"
    same "$f"
    [ "$(docs "$f")" -gt 1 ] && split=$((split + 1))
done
# most of the corpus is plain fio output: it must be cut, or this test tests nothing
[ "$split" -ge 10 ] || fail "only $split texts were cut in pieces"

# the last run cut short (a log copied while fio wrote it)
head -c 50001 rep_fio-3.33.txt > short.txt
same short.txt

# fio's text with a heading, a command line, notes (plain ASCII lines of text among
# it: FSC_TEXT_SIMPLE) goes in pieces too, as a huge text does, each piece's headings
# handed on from the pieces above: the same runs, labels and contexts as whole
{ echo "# Results on host A"; echo; cat rep_fio-3.33.txt; } > heading.md
{ echo '$ fio --name=randread --rw=randread'; cat rep_fio-3.33.txt; } > command.txt
# a heading deep inside: the runs below it take it, in their pieces too
{ head -c 30000 rep_fio-3.33.txt | sed '$d'; echo; echo "Host B"; echo; tail -c 20000 rep_fio-3.33.txt; } > late.txt
for f in heading.md command.txt late.txt; do
    [ "$(docs "$f")" -gt 1 ] || fail "$f (fio's text with lines of text) was not cut in pieces"
    same "$f"
done
# from a pipe the text is read whole, judged, and cut in memory the same way
[ "$(docs - < heading.md)" -gt 1 ] || fail "heading.md from stdin was not cut in pieces"
# the runs below "Host B" carry it, as the whole text's do; none above does
hb=$(grep -n '^Host B$' late.txt | cut -d: -f1)
run late.txt 20000 2 --jsonl | python3 -c '
import json, sys
hb = int(sys.argv[1])
runs = [r for r in map(json.loads, sys.stdin) if "source" in r]
below = [r for r in runs if r["source"]["first_line"] > hb]
above = [r for r in runs if r["source"]["first_line"] < hb]
assert len(below) >= 10 and len(above) >= 10, (len(below), len(above))
assert all(r["context"] == ["Host B"] and r["label"].startswith("Host B") for r in below)
assert not any(r["context"] for r in above)
' "$hb" || fail "late.txt: the runs in pieces below the heading do not carry it"
# a caption that begins a piece after a plain one is a caption there too, not the
# title of a document: a later caption of its level takes its place (whole, and in
# pieces over 64 KiB, whichever run the cut falls before)
one=$(ls "$FSC_CORPUS"/fio-3.33/*.txt | head -1)
for k in 5 6 7 8 9 10 11 12; do
    { for _ in $(seq $k); do cat "$one"; done; printf '\n\nHost B\n\n'
      for _ in $(seq 20); do cat "$one"; done; printf '\n\nHost C\n\n'
      for _ in $(seq 20); do cat "$one"; done; } > captions.txt
    same captions.txt
    hc=$(grep -n '^Host C$' captions.txt | cut -d: -f1)
    run captions.txt 20000 1 --jsonl | python3 -c '
import json, sys
hc = int(sys.argv[1])
below = [r["context"] for r in map(json.loads, sys.stdin) if "source" in r and r["source"]["first_line"] > hc]
assert below and all(c == ["Host C"] for c in below), below[:2]
' "$hc" || fail "captions.txt ($k runs above the first caption): the runs below the second do not have it alone"
done
# CRLF (a Windows log) and tabs: normalized line by line, so in pieces too
sed 's/$/\r/' rep_fio-3.33.txt > crlf.txt
{ printf 'Results\tfor host A\r\n\r\n'; sed 's/$/\r/' rep_fio-3.33.txt; } > crlf_head.txt
for f in crlf.txt crlf_head.txt; do
    [ "$(docs "$f")" -gt 1 ] || fail "$f (CRLF) was not cut in pieces"
    same "$f"
done
# terminal controls (a coloured CI log): taken out line by line, so in pieces too;
# a CI log whose every line is coloured is cut between its runs as well
esc=$'\e'
{ printf '%s[32;1m$ fio --name=randread --rw=randread%s[0;m\n' "$esc" "$esc"
  sed "s/^/${esc}[0K/" rep_fio-3.33.txt; } > gitlab.log
sed "s/^.*\$/${esc}[32m&${esc}[0m/" rep_fio-3.33.txt > colour.log
sed "s/^.*\$/[32m&[0m/" rep_fio-3.33.txt > lost_esc.log
for f in gitlab.log colour.log lost_esc.log; do
    [ "$(docs "$f")" -gt 1 ] || fail "$f (terminal controls) was not cut in pieces"
    same "$f"
done
# the run lines of a JSONL stream, without the file's name (in paths and ids)
runs_only() { grep -v '"input"' | sed 's/"path":"[^"]*"//; s/"id":"[^"]*#/"id":"#/'; }
run colour.log 20000 2 --jsonl | runs_only > colour.jsonl
run rep_fio-3.33.txt 20000 2 --jsonl | runs_only > plain.jsonl
cmp -s colour.jsonl plain.jsonl || fail "colour.log: its runs differ from those of the text without colours"
# JSON logs: Docker's json-file log (a JSON object per line, the text in its "log"
# string) and a shipper's (the text in "message", after a timestamp member); the
# cutter looks past each line's head, so they are cut between their runs, whole or huge
python3 -c '
import json, sys
with open("docker.log", "w") as docker, open("shipper.log", "w") as shipper:
    for i, l in enumerate(open(sys.argv[1]).read().split("\n")[:-1]):
        t = "2024-05-01T12:00:%02dZ" % (i % 60)
        print(json.dumps({"log": l + "\n", "stream": "stdout", "time": t}, separators=(",", ":")), file=docker)
        print(json.dumps({"@timestamp": t, "message": l}), file=shipper)
' rep_fio-3.33.txt
run rep_fio-3.33.txt 999999999 1 --jsonl | runs_only > rep.jsonl
for f in docker.log shipper.log; do
    [ "$(docs "$f")" -gt 1 ] || fail "$f (a JSON log) was not cut in pieces"
    same "$f"
    FIOSCOPE_PIECE_BYTES=16384 FIOSCOPE_PLAIN_MIN=999999999 "$FIOSCOPE" parse -q --jsonl -j 2 "$f" |
        runs_only > log.jsonl
    cmp -s log.jsonl rep.jsonl || fail "$f read as a huge file: its runs differ from those of its text"
done
# string literals: a Python log with a run's text as one string a line, and a list of a
# run's lines a line; the cutter looks past the text before the string, and ends a run
# where the string's last line does (fsc_strlit_lead, fsc_strlit_tail)
python3 -c '
import sys
text = open(sys.argv[1]).read()
runs, cur = [], []
for l in text.split("\n")[:-1]:
    if ": (g=" in l and cur and not cur[-1].endswith(": (g=0)") and ": (g=" not in cur[-1]:
        runs.append(cur); cur = []
    cur.append(l)
runs.append(cur)
with open("pylog.log", "w") as log, open("pylist.log", "w") as lists:
    for r in runs * 2:  # above the size of huge files (long lines: not cut below it)
        print("INFO bench: fio output: %r" % ("\n".join(r) + "\n").encode(), file=log)
        print("%r" % [l + "\n" for l in r], file=lists)
' rep_fio-3.33.txt
for f in pylog.log pylist.log; do
    [ "$(docs "$f")" -gt 1 ] || fail "$f (output as string literals) was not cut in pieces"
    same "$f"
    FIOSCOPE_PIECE_BYTES=16384 FIOSCOPE_PLAIN_MIN=999999999 "$FIOSCOPE" parse -q --fail-on=none --jsonl -j 2 "$f" \
        > lit.jsonl
    run rep_fio-3.33.txt 999999999 1 --jsonl > rep_runs.jsonl
    python3 -c '
import json, sys
runs = lambda f: [r for r in map(json.loads, open(f)) if "jobs" in r]
nums = lambda f: [json.dumps([r.get(k) for k in ("jobs", "groups", "disk_util")]) for r in runs(f)]
assert nums(sys.argv[1]) == nums(sys.argv[2]) * 2
' lit.jsonl rep_runs.jsonl || fail "$f read as a huge file: its runs differ from those of its text (twice)"
done
# UTF-8 (a heading, a unit, an NBSP among fio's lines) is normalized line by line too
{ echo "Résultats — hôte A"; echo; sed 's/^\(  read:\)/\1\xc2\xa0/' rep_fio-3.33.txt; echo "fin µs"; } > utf8.txt
[ "$(docs utf8.txt)" -gt 1 ] || fail "utf8.txt (fio's text with UTF-8) was not cut in pieces"
same utf8.txt
# markup: normalized whole, one document
{ echo "**Results**"; echo; cat rep_fio-3.33.txt; } > bold.md
[ "$(docs bold.md)" = 1 ] || fail "bold.md is not plain fio text but was cut in pieces"
same bold.md
echo "ok: $split texts cut in pieces, all identical to the whole"
