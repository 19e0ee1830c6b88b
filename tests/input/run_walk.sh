#!/usr/bin/env bash
# Directories (sorted, recursive), symlink loops, entries that really fail as root
# (dangling symlink, FIFO, /proc/self/mem, binary junk), empty files, "-", the exit
# status policy (--fail-on) and the summary line.
source "$(dirname "$0")/lib.sh"

C=$FSC_CORPUS/fio-3.33
mkdir -p d/sub d/B
cp "$C/g_json.json" d/b.json
cp "$C/g_json_group.json" d/sub/a.json
cp "$C/g_jsonplus.json" d/B/z.json
: > d/empty.txt
ln -s .. d/sub/up                        # a loop back to d
ln -s nowhere d/dangling
mkfifo d/fifo                            # must not block the walk
ln -s /proc/self/mem d/mem               # open works, read fails, even as root
printf 'PK\003\004 not really a zip' > d/fake.zip

timeout 60 "$FIOSCOPE" parse --jsonl -j 2 d > out.jsonl 2> err.txt && fail "exit 0 with bad entries"
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EXP'
d/B/z.json|None|ok|1|None
d/b.json|None|ok|1|None
d/dangling|None|error|0|cannot open: dangling symbolic link
d/empty.txt|None|no-runs|0|empty file
d/fake.zip|None|error|0|unreadable archive: Truncated ZIP file header
d/fifo|None|error|0|not read: a FIFO
d/mem|None|error|0|cannot read: Input/output error
d/sub/a.json|None|ok|1|None
d/sub/up|None|error|0|symlink loop: this directory is d, already being read
EXP
tail -n 1 err.txt | grep -qx 'fioscope: 9 inputs: 3 ok, 1 no runs, 5 errors; 3 runs' ||
    fail "summary line: $(tail -n 1 err.txt)"

# standard input, as text and as an archive; a missing path
tar czf d.tgz -C d b.json sub/a.json
"$FIOSCOPE" parse --jsonl -q - < d/b.json > out.jsonl || fail "stdin text"
"$FIOSCOPE" parse --jsonl -q - < d.tgz >> out.jsonl || fail "stdin archive"
"$FIOSCOPE" parse --jsonl -q missing >> out.jsonl && fail "missing path must fail"
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EXP'
-|None|ok|1|None
-|b.json|ok|1|None
-|sub/a.json|ok|1|None
missing|None|error|0|cannot open: No such file or directory
EXP

# --fail-on: the exit status for CI
set +e
"$FIOSCOPE" parse -q d/b.json d/empty.txt > /dev/null; rc_default=$?
"$FIOSCOPE" parse -q --fail-on=error d/b.json d/empty.txt > /dev/null; rc_error=$?
"$FIOSCOPE" parse -q --fail-on=none d/dangling > /dev/null; rc_none=$?
"$FIOSCOPE" parse -q --fail-on=error,no-runs d/b.json > /dev/null; rc_good=$?
"$FIOSCOPE" parse -q --fail-on=nonsense d/b.json > /dev/null 2>&1; rc_usage=$?
set -e
[ "$rc_default $rc_error $rc_none $rc_good $rc_usage" = "1 0 0 0 2" ] ||
    fail "exit statuses: $rc_default $rc_error $rc_none $rc_good $rc_usage, want 1 0 0 0 2"

# the whole (non-JSONL) document lists the same inputs
"$FIOSCOPE" parse -q --fail-on=none d > whole.json
python3 - whole.json <<'PY' || fail "whole document"
import json, sys
d = json.load(open(sys.argv[1]))
assert [i["path"] for i in d["inputs"]][:2] == ["d/B/z.json", "d/b.json"]
assert len(d["inputs"]) == 9 and len(d["runs"]) == 3
assert d["runs"][0]["id"] == "d/B/z.json#1"
PY
# many bad inputs named on the command line: 20 diagnostics, then the summary and a note
mkdir many && for i in $(seq 10 34); do : > "many/$i.txt"; done
"$FIOSCOPE" parse --jsonl many/*.txt > out.jsonl 2> err.txt && fail "empty files must fail"
[ "$(grep -c ': no fio run found$' err.txt)" = 20 ] || fail "diagnostics: $(cat err.txt)"
head -n 1 err.txt | grep -qx 'fioscope: many/10.txt: no fio run found' || fail "first diagnostic"
tail -n 2 err.txt | tr '\n' '~' | grep -qx 'fioscope: 25 inputs: 0 ok, 25 no runs, 0 errors; 0 runs~fioscope: (only the first 20 of 25 problems were shown; the manifest lists them all)~' ||
    fail "summary: $(tail -n 2 err.txt)"
[ "$(grep -c '"status":"no-runs"' out.jsonl)" = 25 ] || fail "manifest must list all 25"
# the same files found by walking a directory: one line for the directory, exit 1
"$FIOSCOPE" parse --jsonl many > out.jsonl 2> err.txt && fail "a directory without runs must fail"
head -n 1 err.txt | grep -qx 'fioscope: many: no fio run found' || fail "directory diagnostic: $(cat err.txt)"
[ "$(wc -l < err.txt)" = 2 ] || fail "one diagnostic and the summary: $(cat err.txt)"
[ "$(grep -c '"status":"no-runs"' out.jsonl)" = 25 ] || fail "manifest must list all 25 (walk)"
# a folder of logs with sidecars and a README: the files without runs are skipped quietly
mkdir side && cp "$FSC_CORPUS/fio-3.33/a_randread_psync.txt" side/ &&
    cp "$FSC_CORPUS/fio-3.33/a_randread_psync.cmd" side/ && echo "notes" > side/README
"$FIOSCOPE" parse side > out.json 2> err.txt || fail "sidecars made the exit status $?: $(cat err.txt)"
grep -q "no fio run" err.txt && fail "sidecars were reported: $(cat err.txt)"
[ "$(grep -c '"no-runs"' out.json)" = 2 ] || fail "sidecars keep their inputs entry"
# ... but a named file without runs counts
"$FIOSCOPE" parse side/README side/a_randread_psync.txt > /dev/null 2> err.txt && fail "named README"
grep -qx 'fioscope: side/README: no fio run found' err.txt || fail "named README diagnostic: $(cat err.txt)"

# quiet: nothing at all on stderr
"$FIOSCOPE" parse --jsonl -q --fail-on=none d > /dev/null 2> err.txt
[ ! -s err.txt ] || fail "--quiet printed: $(cat err.txt)"
echo ok
