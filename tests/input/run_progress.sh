#!/usr/bin/env bash
# The progress line: drawn on a terminal (script(1) provides one), redrawn in place
# with \r, erased before the summary; absent when stderr is a file or with --quiet.
source "$(dirname "$0")/lib.sh"
command -v script > /dev/null || { echo "skipped: no script(1)"; exit 0; }

mkdir d
cp "$FSC_CORPUS/fio-3.33/g_json_nogroup.json" d/0.json
for i in $(seq 1 800); do ln d/0.json "d/$i.json"; done   # enough work for a few redraws

# redraw at every tick: a fast machine reads all 801 files before the first 0.1 s
FIOSCOPE_PROGRESS_EVERY=0 script -qc "'$FIOSCOPE' parse --jsonl -j 2 d > /dev/null" /dev/null > tty.txt
tr '\r' '\n' < tty.txt > lines.txt # (not piped into grep -q: under pipefail tr's SIGPIPE fails it)
grep -aEq '^.\[Kfioscope: [0-9]+ files, [0-9.]+ MB, [0-9]+ runs, [0-9.]+ MB/s' lines.txt ||
    fail "no progress line on a terminal: $(head -c 300 tty.txt | od -c | head -5)"
grep -aEq '^(.\[K)?fioscope: 801 inputs: 801 ok, 0 no runs, 0 errors; 801 runs$' lines.txt ||
    fail "summary line missing after the progress line"

"$FIOSCOPE" parse --jsonl -j 2 d > /dev/null 2> err.txt
[ "$(cat err.txt)" = "fioscope: 801 inputs: 801 ok, 0 no runs, 0 errors; 801 runs" ] ||
    fail "stderr not a terminal: $(od -c err.txt | head -3)"
script -qc "'$FIOSCOPE' parse --jsonl -q -j 2 d > /dev/null" /dev/null > tty.txt
[ ! -s tty.txt ] || fail "--quiet on a terminal printed: $(od -c tty.txt | head -3)"
echo ok
