#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What fio 3.33 prints for option combinations that random runs turned up (session
# 36; the fixtures are tests/oracle/mk.sh's, checked against fio's JSON by
# oracle.run_oracle too):
# - jobs that fail alike (err=28 on /dev/full) have the longest lines of the text,
#   all as long: not lines cut at that width (a cut would drop their last value);
# - group_reporting on one job of a group, not another: fio's JSON holds an entry
#   with no name in group 4294967295, which is no job;
# - kb_base=1000 with unified_rw_reporting=both: the mixed line's "BW=0 (0)" has no
#   unit; its bw line is in the base the job's write line tells;
# - unified_rw_reporting=both on a trim job: fio 3.27-3.38 print the mixed line as
#   "IOPS=0, BW=0 (0)(0B/1001msec)"; its numbers are the trim line's, its I/Os the
#   trim's issued count (not the issued line's first, read's, count), and the report
#   and its JSON are one run.
. "$(dirname "$0")/../input/lib.sh"
fx="$FSC_SOURCE_DIR/tests/oracle/fixtures"
normal_only() { sed '/^{$/,/^}$/d' "$1"; }

normal_only "$fx/failed-jobs-alike.normal+json.txt" > failed.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none failed.txt | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert len(runs) == 1, len(runs)
r = runs[0]
assert [j["jobname"] for j in r["jobs"]] == ["full0", "full1", "full1", "full1"], [j["jobname"] for j in r["jobs"]]
assert all(j["error"] == 28 and "No space left" in j["error_text"] for j in r["jobs"]), r["jobs"][0]
assert not any("cut short" in w["message"] for w in r["warnings"]), r["warnings"]
' || fail "failed.txt: fio's own lines read as cut at their width"
# many such runs read in pieces: each piece sees them as the whole text does
for i in $(seq 200); do cat failed.txt; done > failed_many.txt
whole_and_pieces failed_many.txt
grep -q "cut short" whole.jsonl && fail "failed_many.txt: lines read as cut"

sed -n '/^{$/,/^}$/p' "$fx/group-reporting-empty-entry.normal+json.txt" > empty_entry.json
"$FIOSCOPE" parse --jsonl -q --fail-on=none empty_entry.json | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert len(runs) == 1 and [j["jobname"] for j in runs[0]["jobs"]] == ["a"], runs
assert [w["message"] for w in runs[0]["warnings"]] == [
    "1 job without a name in group 4294967295 left out (fio'"'"'s empty entry of group_reporting)"], runs[0]["warnings"]
' || fail "empty_entry.json: fio's empty entry read as a job"
FIOSCOPE_NO_FASTPATH=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none empty_entry.json > ref.jsonl
"$FIOSCOPE" parse --jsonl -q --fail-on=none empty_entry.json | cmp -s - ref.jsonl ||
    fail "empty_entry.json: the fast JSON reader and the tree reader differ"
"$FIOSCOPE" parse --jsonl -q --fail-on=none "$fx/group-reporting-empty-entry.normal+json.txt" | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert len(runs) == 1 and runs[0]["source"]["formats"] == ["normal", "json"], [r["source"] for r in runs]
' || fail "group-reporting-empty-entry: its text and its JSON are not one run"

normal_only "$fx/kb-base-1000-unified-both.normal+json.txt" > kb.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none kb.txt | python3 -c '
import json, sys
j = [r for r in map(json.loads, sys.stdin) if "input" not in r][0]["jobs"][0]
w, m = j["write"], j["mixed"]
assert m["bw_min"] == w["bw_min"] and m["bw_mean"] == w["bw_mean"], (w, m)
' || fail "kb.txt: the mixed bw line is not in the base of the write line"
normal_only "$fx/unified-trim.normal+json.txt" > trim.txt
"$FIOSCOPE" parse --jsonl -q --fail-on=none trim.txt | python3 -c '
import json, sys
r = [r for r in map(json.loads, sys.stdin) if "input" not in r][0]
j = r["jobs"][0]
t, m = j["trim"], j["mixed"]
assert t["total_ios"] == m["total_ios"] == 6442023, (t, m)
assert m["iops"] == t["iops"] == 6436000 and m["io_bytes"] == t["io_bytes"], (t, m)
assert "read" not in j or not j["read"].get("total_ios"), j.get("read")
assert any("mixed IOPS, bandwidth and bytes as 0" in w["message"] for w in r["warnings"]), r["warnings"]
' || fail "trim.txt: the mixed line of unified_rw_reporting=both not read from the trim line"
"$FIOSCOPE" parse --jsonl -q --fail-on=none "$fx/unified-trim.normal+json.txt" | python3 -c '
import json, sys
runs = [r for r in map(json.loads, sys.stdin) if "input" not in r]
assert len(runs) == 1 and runs[0]["source"]["formats"] == ["normal", "json"], [r["source"] for r in runs]
' || fail "unified-trim: its text and its JSON are not one run"
echo ok
