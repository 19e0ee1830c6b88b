#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where a run ends, and fio's messages ("fio: pid=0, err=2/file:filesetup.c:...,
# error=No such file or directory") where no run is open: above a run's preamble
# (fio warns before it starts), above fio's JSON, in a CI log's next section under a
# finished report, or alone. Each is a warning of the run that ends below it (or of the document's last
# run), never of the finished run above a section's text; with no run at all, the
# manifest says it. A message wrapped onto two lines is joined as it was cut. A huge
# log read in pieces tells each where the whole text does.
. "$(dirname "$0")/../input/lib.sh"

run="$FSC_CORPUS/fio-3.33/a_randread_psync.txt"
json=$(ls "$FSC_CORPUS"/fio-3.33-oracle/*.normal+json.txt | head -1)
msg="fio: pid=0, err=2/file:filesetup.c:805, func=open(/dev/nvme9n1), error=No such file or directory"
# a CI log: test 1 ran, test 2 failed at once, test 3 ran
{
    echo "=== test 1 ==="; cat "$run"; echo
    echo "=== test 2 ==="; echo "$msg"; echo
    echo "=== test 3 ==="
    echo "fio: this platform does not support process shared mutexes, forcing use of threads."
    cat "$run"
} > ci.log
"$FIOSCOPE" parse --jsonl -q --fail-on=none ci.log > ci.jsonl
python3 - ci.jsonl <<'PY' || fail "ci.log: the messages are not told by the runs below them"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
assert len(runs) == 2, len(runs)
first = [w["message"] for w in runs[0]["warnings"]]
second = [w["message"] for w in runs[1]["warnings"]]
assert not any("err=2" in m or "mutexes" in m for m in first), first
assert any("err=2" in m and "No such file" in m for m in second), second
assert any("shared mutexes" in m for m in second), second
PY

# fio's message, then its JSON (--output-format=json with the message on stderr)
{ echo "fio: terminating on signal 2"; sed -n '/^{$/,/^}$/p' "$json"; } > msg_json.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none msg_json.txt | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert len(runs) == 1 and runs[0]["source"]["format"] == "json", runs
assert [w["message"] for w in runs[0]["warnings"]] == ["fio: terminating on signal 2"], runs[0]["warnings"]
' || fail "msg_json.txt: the JSON run does not tell the message above it"

# fio's stderr alone: no run, and the manifest says what fio said
echo "$msg" > alone.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none alone.txt | python3 -c '
import json, sys
e = [o["input"] for o in map(json.loads, sys.stdin) if "input" in o][0]
assert e["status"] == "no-runs" and "line 1: fio: pid=0, err=2" in (e["error"] or ""), e
' || fail "alone.txt: the manifest does not give fio's message"

# a run without disk stats ends at its group summaries: the words below them (a
# heading, prose) are not the run's, nor is a message under them, nor a summary of
# another system under its own heading (a mail's two kernels were one run of two
# groups); a time stamp alone between the summaries and the disk stats is no end
summary="Run status group 0 (all jobs):
   READ: bw=42.8MiB/s (44.8MB/s), 42.8MiB/s-42.8MiB/s (44.8MB/s-44.8MB/s), io=85.5MiB (89.7MB), run=2001-2001msec"
{
    sed '/^Disk stats/,$d' "$run"; echo "Some prose about it"; echo "fio: terminating on signal 2"
    cat "$run"; echo; echo "kernel 5.14"; echo; echo "$summary"; echo; echo "kernel 6.14"; echo; echo "$summary"
} > summaries.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none summaries.txt | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert len(runs) == 4, [r["label"] for r in runs]
assert runs[0]["source"]["last_line"] < 31 and not runs[0]["warnings"], runs[0]["source"]
assert [w["message"] for w in runs[1]["warnings"]] == ["fio: terminating on signal 2"], runs[1]["warnings"]
assert [r["label"] for r in runs[2:]] == ["kernel 5.14", "kernel 6.14"], [r["label"] for r in runs]
assert all(len(r["groups"]) == 1 for r in runs[2:]), [len(r["groups"]) for r in runs]
' || fail "summaries.txt: a run without disk stats does not end at its summaries"
sed -n '1,/^Disk stats/p' "$run" | sed '$d' | sed '$d' > stamped.txt
{ echo "[ 2382.149017] "; sed -n '/^Disk stats/,$p' "$run"; } >> stamped.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none stamped.txt | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert len(runs) == 1 and len(runs[0]["disk_util"]) == 1, runs
' || fail "stamped.txt: a time stamp alone parted a run from its disk stats"

# a message wrapped onto two lines: a mail's word wrap took the space at the seam
# ("option to" above "get rid": joined with one), a terminal's cut at its width
# took none ("op" above "tion", the line as wide as the text around it); a message
# that ends short of the width is whole: fio's "note: ..." under it is its own. (A
# word-wrapped line as wide as its paragraph's widest still reads as a cut: folded
# at 70, "... option to" is the widest line of the preamble and joins "toget".)
long="fio: Switching to tausworthe64. Use the random_generator= option to get rid of this warning."
{ sed -n '1,3p' "$run"; echo "$long"; sed -n '4,$p' "$run"; } | fold -s -w 64 | sed 's/ $//' > wordwrap.txt
{ sed -n '1,3p' "$run" | fold -w 60; echo "$long" | fold -w 60; sed -n '4,$p' "$run" | fold -w 60; } > hardcut.txt
for f in wordwrap.txt hardcut.txt; do
    "$FIOSCOPE" parse --jsonl -q --fail-on=none $f | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert len(runs) == 1, runs
assert [w["message"] for w in runs[0]["warnings"]] == [sys.argv[1]], runs[0]["warnings"]
' "$long" || fail "$f: the wrapped message is not joined as it was cut"
done
note="note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1"
{ sed -n '1,3p' "$run"; echo "$msg"; echo "$note"; sed -n '4,$p' "$run"; } > note.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none note.txt | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert [w["message"] for w in runs[0]["warnings"]] == ["fio: " + m for m in sys.argv[1:]], runs[0]["warnings"]
' "${msg#fio: }" "$note" || fail "note.txt: fio's note is not a message of its own"

# the CI log 300 times over, read in pieces: each message where whole
for i in $(seq 300); do cat ci.log; done > huge.log
whole_and_pieces huge.log
[ "$PIECES" -ge 100 ] || fail "huge.log: $PIECES pieces"
python3 - whole.jsonl <<'PY' || fail "huge.log: a message is not told by the run below it"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
assert len(runs) == 600, len(runs)
for k, r in enumerate(runs):
    told = sum("err=2" in w["message"] for w in r["warnings"])
    assert told == k % 2, (k, r["warnings"])
PY
# a report, fio's JSON of another run under it, then a message above a third run's
# JSON: the JSON document ends the report, and the message is the third run's
json2=$(ls "$FSC_CORPUS"/fio-3.33-oracle/*.normal+json.txt | sed -n 2p)
{ cat "$run"; echo; sed -n '/^{$/,/^}$/p' "$json"; echo; echo; echo "fio: terminating on signal 2"
  sed -n '/^{$/,/^}$/p' "$json2"; } > under_json.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none under_json.txt | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert [r["source"]["format"] for r in runs] == ["normal", "json", "json"], [r["source"] for r in runs]
assert runs[0]["source"]["last_line"] == 32 and not runs[0]["warnings"], (runs[0]["source"], runs[0]["warnings"])
assert [w["message"] for w in runs[2]["warnings"]] == ["fio: terminating on signal 2"], runs[2]["warnings"]
' || fail "under_json.txt: a report stays open under a JSON document"

# a flood of fio's messages above a run, longer than four pieces: the pieces between
# hold no run (a piece ends at a line end there); their messages are carried on to
# the run below, first among its warnings, as it tells them when read whole
python3 -c '
import sys
print("".join("fio: io_u error on file /dev/sdb: Input/output error: read offset=%d, buflen=4096\n" % (i * 4096) for i in range(3000)), end="")
sys.stdout.write(open(sys.argv[1]).read())
' "$run" > flood.txt
cat "$run" >> flood.txt
whole_and_pieces flood.txt
[ "$PIECES" -ge 5 ] || fail "flood.txt: $PIECES pieces"
python3 - whole.jsonl <<'PY' || fail "flood.txt: the run below does not tell the messages"
import json, sys
runs = [r for r in map(json.loads, open(sys.argv[1])) if "input" not in r]
assert len(runs) == 2, len(runs)
w = runs[0]["warnings"]
assert len(w) == 3000 and w[0]["line"] == 1 and w[-1]["line"] == 3000, (len(w), w[:1], w[-1:])
assert w[1]["message"] == "fio: io_u error on file /dev/sdb: Input/output error: read offset=4096, buflen=4096", w[1]
assert not runs[1]["warnings"], runs[1]["warnings"][:2]
PY
echo ok
