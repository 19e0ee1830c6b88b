#!/usr/bin/env bash
# Hardening, round two (issue #18): what the second look found, one case each, with the
# attack's input shape. Like run_findings.sh, every case runs on its own and all
# failing cases are reported, so that it can be pointed at an older binary
# (FIOSCOPE=old/fioscope) to see which attacks worked there.
source "$(dirname "$0")/cases_lib.sh"

# ---- rerun of an untrusted document: its log options named any path ----
# write_bw_log=/abs/path truncated that file (O_TRUNC), a job called ../../x wrote
# beside the document's folder; now every log goes into the rerun's data folder.
case_rerun_log_paths() {
    mkdir -p rr/target rr/data
    echo precious > rr/target/pwn_bw.1.log
    { echo "\$ fio --name=randread --rw=randread --size=64k --write_bw_log=$PWD/rr/target/pwn --write_lat_log"
      echo; cat "$G"; } > rr/doc.txt
    "$FIOSCOPE" rerun -q rr/doc.txt --directory=rr/data --size=64k --runtime=1 > rr/out 2> rr/err ||
        fail "rerun: exit $? ($(cat rr/err))"
    [ "$(cat rr/target/pwn_bw.1.log)" = precious ] || fail "rerun overwrote a file the document named"
    [ -s rr/data/pwn_bw.1.log ] || fail "the bw log is not in the data folder: $(ls rr/data)"
    ls rr/data/randread_lat.1.log > /dev/null || fail "the lat log (named after the job) is not in the data folder"
    [ ! -e randread_lat.1.log ] || fail "a log went into the current folder"
    # the default data folder is kept (and said) when logs were written into it
    (cd rr && "$FIOSCOPE" rerun doc.txt --size=64k --runtime=1 > out2 2> err2) || fail "rerun without --directory"
    grep -q 'kept fioscope-rerun\.' rr/err2 || fail "the kept folder is not named: $(cat rr/err2)"
}

# ---- the flat export of rows with disjoint fields: rows x columns cells ----
# 4,000 jobs, each with its own job option and percentile: the CSV held 16 million
# empty cells; now the rare fields go into other_fields, the table stays linear, and
# no value is lost.
case_flat_disjoint_fields() {
    $PY - "$SAMPLE" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def job(i):
    return {"jobname": "j%d" % i, "groupid": 0, "error": 0, "job options": {"opt%d" % i: str(i)},
            "read": {"io_bytes": 4096, "bw_bytes": 1000, "iops": 10.0, "runtime": 1000,
                     "clat_ns": {"min": 1, "max": 9, "mean": 5.0,
                                 "percentile": {"%d.%06d" % (i % 100, i): 9}}}}
d["jobs"] = [job(i) for i in range(4000)]
open("disjoint.json", "w").write(json.dumps(d))
PY
    limited "$FIOSCOPE" parse -q --format csv -o disjoint.csv disjoint.json || fail "parse csv: exit $?"
    limited "$FIOSCOPE" parse -q --format tsv -o disjoint.tsv disjoint.json || fail "parse tsv: exit $?"
    $PY - <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open("disjoint.csv", newline="")))
head = list(rows[0].keys())
assert len(head) < 40, "%d columns" % len(head)
assert head[-1] == "other_fields", head
assert len(rows) == 4000
o = json.loads(rows[1234]["other_fields"])
assert o == {"job options.opt1234": "1234", "clat_ns.percentile.34.001234": 9}, o
assert rows[1234]["jobname"] == "j1234" and rows[1234]["iops"] == "10"
size = sum(len(l) for l in open("disjoint.csv"))
assert size < 2_000_000, size
t = open("disjoint.tsv").read().split("\n")
assert t[0].split("\t")[-1] == "other_fields" and len(t[0].split("\t")) == len(head)
PY
    # a table of few columns keeps every field a column
    "$FIOSCOPE" parse -q --format csv -o small.csv "$SAMPLE" || fail "parse csv of the sample: exit $?"
    head -1 small.csv | grep -q other_fields && fail "other_fields on a small table"
    true
}

# ---- the Python module's to_dataframe: the same rule as the CSV ----
case_dataframe_disjoint_fields() {
    [ -f disjoint.json ] || case_flat_disjoint_fields
    $asan && { echo "  (the Python module runs in the plain suite)"; return 0; }
    [ -e "$FSC_BUILD_DIR/libfioscope.so" ] || { echo "  (no libfioscope.so: skipped)"; return 0; }
    FIOSCOPE_LIBRARY="$FSC_BUILD_DIR/libfioscope.so" PYTHONPATH="$FSC_SOURCE_DIR/python" $PY - <<'PY'
import fioscope
df = fioscope.to_dataframe(fioscope.parse("disjoint.json"))
assert df.shape[0] == 4000 and df.shape[1] < 40, df.shape
assert df.columns[-1] == "other_fields"
assert df["other_fields"].iloc[7] == {"job options.opt7": "7", "clat_ns.percentile.7.000007": 9}, df["other_fields"].iloc[7]
PY
}

# ---- logs joined to runs: every log asked every job of its group ----
# A tar of 20,000 small logs (no run) took seconds and grew with the square; the
# names are now found in a hash index.
case_logs_many() {
    local n=$($asan && echo 4000 || echo 20000) # ASan: the join, not the growth
    $PY - "$G" "$n" <<'PY'
import io, sys, tarfile
buf = io.BytesIO()
g = open(sys.argv[1]).read()
with tarfile.open(fileobj=buf, mode="w") as t:
    def add(name, data):
        data = data.encode()
        ti = tarfile.TarInfo(name); ti.size = len(data); t.addfile(ti, io.BytesIO(data))
    add("d/out.txt", "$ fio --name=randread --write_iops_log=named\n\n" + g)
    for i in range(int(sys.argv[2])):
        add("d/p%d_bw.1.log" % i, "1, 1, 0, 4096\n2, 1, 0, 4096\n")
    add("d/randread_bw.1.log", "1, 7, 0, 4096\n")
    add("d/named_iops.1.log", "1, 9, 0, 4096\n")
open("logs.tar", "wb").write(buf.getvalue())
PY
    limited "$FIOSCOPE" series -q -j 1 logs.tar > series.csv || fail "series: exit $?"
    grep -q '^logs.tar:d/out.txt#1,randread,1,bw,all,0,4096$' series.csv || fail "the job's own log lost its run"
    grep -q '^logs.tar:d/out.txt#1,randread,1,iops,all,0,9$' series.csv || fail "the log the command names lost its run"
    [ "$(grep -c ',p[0-9]*,1,bw,' series.csv)" = "$n" ] || fail "logs without a run: $(grep -c ',p[0-9]*,1,bw,' series.csv) rows"
}

# ---- numjobs=100 without group_reporting: 100 clone logs of one job ----
# series, --sum, --steady and the tables' time statistics took the first 64 clones and
# dropped the rest without a word.
case_clones_over_64() {
    $PY - "$G" <<'PY'
import io, sys, tarfile
buf = io.BytesIO()
g = open(sys.argv[1]).read()
with tarfile.open(fileobj=buf, mode="w") as t:
    def add(name, data):
        data = data.encode()
        ti = tarfile.TarInfo(name); ti.size = len(data); t.addfile(ti, io.BytesIO(data))
    add("d/out.txt", g)
    for i in range(1, 101):
        add("d/randread_bw.%d.log" % i, "1000, %d, 0, 4096\n2000, %d, 0, 4096\n" % (i, i))
open("clones.tar", "wb").write(buf.getvalue())
PY
    "$FIOSCOPE" series -q clones.tar > clones.csv || fail "series: exit $?"
    [ "$(tail -n +2 clones.csv | cut -d, -f3 | sort -u | wc -l)" = 100 ] || fail "series: not every clone"
    # the sum over the clones at t=1000: 100 x 4 KiB/s (64 x: 262144)
    "$FIOSCOPE" series -q --sum clones.tar | grep -q ',all,bw,all,1000,409600$' || fail "--sum: not every clone"
    "$FIOSCOPE" table -q -m jobname,bw.ts.mean clones.tar | grep -q ' 267 KiB/s' || fail "table: bw.ts.mean not over every clone"
}

# ---- a diagnostic printed "(null)" (a NULL --y through %s) or glued the metric to
# the text: "... in its folderbw'" ----
case_chart_nothing_message() {
    set +e
    "$FIOSCOPE" chart -q -t heatmap -o h.svg "$G" 2> h.err
    "$FIOSCOPE" chart -q -t timeseries -y bw -o t.svg "$G" 2> t.err
    set -e
    grep -q 'has a histogram log (write_hist_log) in its folder$' h.err || fail "heatmap message: $(cat h.err)"
    grep -q 'in its folder$' t.err || fail "timeseries message: $(cat t.err)"
    ! grep -q '(null)' h.err t.err || fail "(null) in a message"
}

# ---- the report's disk heat map of a run with 16,000 devices: every device was
# looked up among all the others (23 s); a key index now (about 5 s) ----
case_report_many_devices() {
    $asan && { echo "  (timed in the plain suite)"; return 0; }
    $PY - "$G" <<'PY'
import sys
g = open(sys.argv[1]).read()
at = g.index("Disk stats (read/write):\n") + len("Disk stats (read/write):\n")
disks = "".join("  md%d: ios=1/1, merge=0/0, ticks=1/1, in_queue=1, util=1.00%%, aggrios=1/1, aggrmerge=0/0, "
                "aggrticks=1/1, aggrin_queue=1, aggrutil=1.00%%\n    sd%d: ios=1/1, merge=0/0, ticks=1/1, "
                "in_queue=1, util=%d.00%%\n" % (i, i, i % 100) for i in range(16000))
open("disks.txt", "w").write(g[:at] + disks)
PY
    (ulimit -t 15; "$FIOSCOPE" report -q -o disks disks.txt) || fail "report of 16,000 devices: exit $? (137/152: over 15 CPU seconds)"
    grep -q 'sd15999' disks/charts/disk-util.svg || fail "the last device is not in the heat map"
}

run_cases report_many_devices chart_nothing_message clones_over_64 rerun_log_paths flat_disjoint_fields dataframe_disjoint_fields logs_many
