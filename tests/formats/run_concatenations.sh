#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Documents put one after another (cat of a results folder, a long mail thread, a
# tarball's members in one file), as session 37 found them in 22 MB concatenations
# of every real document, read whole and in pieces:
# - fio's JSON first, a pasted page after it (its lines end in "<br>"): the page is
#   HTML though the document opens with '{'. Its run read as "damaged", its Disk
#   stats line as a run of its own; in pieces it differed from whole wherever a
#   piece began with the JSON.
# - an attempt that failed before any summary, then another run: the attempt's
#   preamble took the next run's in, or its note went past a JSON document to the
#   text run below it; and a piece that ended with such an attempt gave its note to
#   its own last run, the whole text to the run below. A pasted `fio --version` above a
#   run began the run, which took its command.
# - a mailbox whose mails each attach a compressed log is in mail_archives.
. "$(dirname "$0")/../input/lib.sh"
fx="$FSC_SOURCE_DIR/tests/oracle/fixtures"

sed -n '/^{$/,/^}$/p' "$fx/description.normal+json.txt" > run.json
sed '/^{$/,/^}$/d' "$fx/libaio-group-4j.normal+json.txt" > page.txt
sed 's/$/<br>/' page.txt > page_br.txt
{ cat run.json; echo; cat page_br.txt; } > json_then_page.txt
"$FIOSCOPE" parse --jsonl -q page.txt > alone.jsonl || fail "page.txt: exit status $?"
"$FIOSCOPE" parse --jsonl -q --fail-on=none json_then_page.txt > both.jsonl
python3 - alone.jsonl both.jsonl <<'PY' || fail "json_then_page.txt: the page after the JSON misread"
import json, sys
runs = lambda f: [r for r in map(json.loads, open(f)) if "jobs" in r]
alone, both = runs(sys.argv[1]), runs(sys.argv[2])
assert [r["source"]["format"] for r in both] == ["json", "normal"], [r["source"] for r in both]
page = both[1]
assert page["source"]["fio_version"] == "fio-3.33", page["source"]
assert page["warnings"] == [], page["warnings"]
assert page["jobs"] == alone[0]["jobs"] and page["groups"] == alone[0]["groups"], "values differ"
assert page["disk_util"] == alone[0]["disk_util"] and page["disk_util"], page["disk_util"]
assert both[0]["jobs"][0]["jobname"] == "desc", both[0]["jobs"][0]["jobname"]
PY

# a job of fio's JSON named with a tag is a name: the document is no HTML
sed 's/"jobname" : "desc"/"jobname" : "a<br>b"/' run.json > tag_name.json
"$FIOSCOPE" parse --jsonl -q tag_name.json | python3 -c '
import json, sys
r = [r for r in map(json.loads, sys.stdin) if "jobs" in r][0]
assert r["jobs"][0]["jobname"] == "a<br>b", r["jobs"][0]["jobname"]
' || fail "tag_name.json: a job name read as markup"

# 40 of them: every piece that begins with the JSON reads its page as the whole does
for i in $(seq 40); do cat run.json page_br.txt; done > many.txt
same_in_64k_pieces many.txt 80
grep -c '"format":"normal","fio_version":"fio-3.33"' whole.jsonl | grep -qx 40 ||
    fail "many.txt: $(grep -c '"format":"normal","fio_version":"fio-3.33"' whole.jsonl) pages of 40 read clean"
FIOSCOPE_PIECE_BYTES=16384 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 many.txt > pieces16.jsonl
cmp -s whole.jsonl pieces16.jsonl || fail "many.txt: in 16 KiB pieces, not as read whole"
# an attempt that failed before fio printed any summary (io_u errors, then the
# paste's "..."), then another run: its preamble is no part of the next run's, and
# its note goes to the run right below it, the JSON document's when that comes first
cat > failed.txt <<'TXT'
md: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=io_uring, iodepth=64
fio-3.33
Starting 1 process
fio: io_u error on file /dev/md127: Operation not supported: read offset=18761783697408, buflen=4096
fio: io_u error on file /dev/md127: Operation not supported: read offset=17577830526976, buflen=4096
...............................................
TXT
{ cat failed.txt; echo; cat page.txt; } > failed_then_run.txt
{ cat failed.txt; echo; cat run.json; echo; cat page.txt; } > failed_then_json.txt
for f in failed_then_run.txt failed_then_json.txt; do
    "$FIOSCOPE" parse --jsonl -q --fail-on=none "$f" > "$f.jsonl"
done
python3 - alone.jsonl failed_then_run.txt.jsonl failed_then_json.txt.jsonl <<'PY' || fail "a failed attempt above a run"
import json, sys
runs = lambda f: [r for r in map(json.loads, open(f)) if "jobs" in r]
alone = runs(sys.argv[1])[0]
note = ("a fio run without results (lines 1-5; fio: io_u error on file /dev/md127: Operation not supported: "
        "read offset=18761783697408, buflen=4096): left out")
(r,) = runs(sys.argv[2])
assert r["source"]["first_line"] == 8, r["source"]
assert r["jobs"] == alone["jobs"] and r["source"]["fio_version"] == "fio-3.33"
assert [w["message"] for w in r["warnings"]] == [note], r["warnings"]
j, page = runs(sys.argv[3])
assert j["source"]["format"] == "json" and j["source"]["first_line"] == 8, j["source"]
assert [w["message"] for w in j["warnings"]] == [note], j["warnings"]
assert page["warnings"] == [] and page["jobs"] == alone["jobs"], page["warnings"]
PY
# a pasted `fio --version` above a run is no attempt: no note; and no part of the
# run either (fio prints its banner after the job definitions), whose command is the
# one above its definition
{ echo '$ fio --version'; echo 'fio-3.33'; echo '$ fio job.fio'; cat page.txt; } > version_above.txt
"$FIOSCOPE" parse --jsonl -q version_above.txt | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "jobs" in r]
assert len(runs) == 1 and runs[0]["warnings"] == [], [r["warnings"] for r in runs]
assert runs[0]["source"]["first_line"] == 4 and runs[0]["context"] == ["fio job.fio"], (runs[0]["source"], runs[0]["context"])
' || fail "version_above.txt: fio --version taken for an attempt or a part of the run"
# and in pieces: 60 of (a run, a failed attempt, a run), cut anywhere
for i in $(seq 60); do cat page.txt failed.txt page.txt; done > failed_many.txt
same_in_64k_pieces failed_many.txt 120
FIOSCOPE_PIECE_BYTES=16384 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 failed_many.txt > pieces16.jsonl
cmp -s whole.jsonl pieces16.jsonl || fail "failed_many.txt: in 16 KiB pieces, not as read whole"
# stopped by a signal, it printed an empty summary: a piece that ends with it gave
# its note to the piece's last run
printf '%s\n' 'sig: (g=0): rw=read, bs=(R) 32.0KiB-32.0KiB, (W) 32.0KiB-32.0KiB, (T) 32.0KiB-32.0KiB, ioengine=sync, iodepth=32' \
    fio-3.33 'Starting 1 process' 'sig: Laying out IO file (1 file / 10240MiB)' '' 'fio: terminating on signal 2' '' \
    'Run status group 0 (all jobs):' > signal.txt
for i in $(seq 60); do cat page.txt signal.txt page.txt; done > signal_many.txt
same_in_64k_pieces signal_many.txt 120
FIOSCOPE_PIECE_BYTES=16384 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 signal_many.txt > pieces16.jsonl
cmp -s whole.jsonl pieces16.jsonl || fail "signal_many.txt: in 16 KiB pieces, not as read whole"
for i in $(seq 30); do cat page.txt failed.txt run.json page.txt; done > failed_json_many.txt
same_in_64k_pieces failed_json_many.txt 90
FIOSCOPE_PIECE_BYTES=16384 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 failed_json_many.txt > pieces16.jsonl
cmp -s whole.jsonl pieces16.jsonl || fail "failed_json_many.txt: in 16 KiB pieces, not as read whole"
echo "concatenated documents: read as each alone, whole and in pieces"
