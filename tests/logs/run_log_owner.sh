#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A log whose prefix names no job ("write_bw_log=bw" in a job file, which fio's normal
# text does not show) goes to the only run of its folder when that run's jobs have one
# name and the folder's logs of that option one prefix; with two runs in the folder,
# jobs of two names, or two prefixes, it stays in a run of format log (docs/logs.md);
# so does a log whose thread number the run has not, or whose samples go on long
# after the run's longest job ended.
. "$(dirname "$0")/../input/lib.sh"
fx="$FSC_SOURCE_DIR/tests/logs/fixtures/avg"
one="$FSC_CORPUS/fio-3.33/a_randread_psync.txt"    # one job, "randread"
two="$FSC_CORPUS/fio-3.33/d_jobfile_two_groups.txt" # jobs of two names
summary() { # runs of a JSON Lines stream as "format:jobs:series"
    python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if "input" not in r:
        print("%s:%d:%d" % (r["source"]["format"], len(r["jobs"]), len(r.get("series", []))))
'
}
mkdir only two_runs two_names
cp "$one" only/out.txt
cp "$fx/avg_bw.1.log" only/mybw_bw.1.log
cp "$fx/avg_clat.1.log" only/mylat_clat.1.log
[ "$("$FIOSCOPE" parse --jsonl -q only | summary)" = "normal:1:2" ] ||
    fail "only/: the logs did not join the folder's only run: $("$FIOSCOPE" parse --jsonl -q only | summary)"
"$FIOSCOPE" parse --jsonl -q only | python3 -c '
import json, sys
r = [json.loads(l) for l in sys.stdin if "input" not in l[:12]][0]
assert sorted((s["kind"], s["job"]) for s in r["series"]) == [("bw", "randread"), ("clat", "randread")], r["series"]
' || fail "only/: the series are not the job's"

cp -r only/. two_runs/ && cp "$one" two_runs/again.txt
[ "$("$FIOSCOPE" parse --jsonl -q two_runs | summary | sort | tr '\n' ' ')" = "log:2:2 normal:1:0 normal:1:0 " ] ||
    fail "two_runs/: $("$FIOSCOPE" parse --jsonl -q two_runs | summary | tr '\n' ' ')"

cp "$two" two_names/out.txt && cp "$fx/avg_bw.1.log" two_names/mybw_bw.1.log
got=$("$FIOSCOPE" parse --jsonl -q two_names | summary)
case "$got" in *log:1:1*) ;; *) fail "two_names/: the log joined a run: $got" ;; esac
# two prefixes of one option: logs of two jobs, not this run's one
mkdir two_prefixes && cp "$one" two_prefixes/out.txt
cp "$fx/avg_bw.1.log" two_prefixes/a_bw.1.log && cp "$fx/avg_bw.1.log" two_prefixes/b_bw.1.log
got=$("$FIOSCOPE" parse --jsonl -q two_prefixes | summary | sort | tr '\n' ' ')
[ "$got" = "log:2:2 normal:1:0 " ] || fail "two_prefixes/: $got"
# logs of another run of the same prefix beside this run's text: a thread number the
# run has not (it had one job of one thread), or samples long after its 2 s
mkdir other_threads other_time
cp "$one" other_threads/out.txt && cp "$fx/avg_bw.1.log" other_threads/mybw_bw.3.log
got=$("$FIOSCOPE" parse --jsonl -q other_threads | summary | sort | tr '\n' ' ')
[ "$got" = "log:1:1 normal:1:0 " ] || fail "other_threads/: $got"
cp "$one" other_time/out.txt
awk -F', ' -v OFS=', ' '{ $1 = $1 + 60000; print }' "$fx/avg_bw.1.log" > other_time/mybw_bw.1.log
got=$("$FIOSCOPE" parse --jsonl -q other_time | summary | sort | tr '\n' ' ')
[ "$got" = "log:1:1 normal:1:0 " ] || fail "other_time/: $got"
echo ok
