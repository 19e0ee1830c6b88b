#!/usr/bin/env bash
# The command line as a user meets it: help for every command, did-you-mean for
# commands, options, values and metric names, `fioscope metrics`, the flat export
# (parse --format csv|tsv) and its units, one name = one unit across outputs,
# status lines on stderr, compare --fail-on=regression:PCT and the exit statuses.
source "$(dirname "$0")/../input/lib.sh"   # a temporary folder, fail()
PY=/usr/bin/python3
C=$FSC_CORPUS/fio-3.33

# --- help: 'fioscope help CMD' is 'fioscope CMD --help', for every listed command
cmds=$("$FIOSCOPE" --help | sed -n '/^commands:/,/^$/p' | awk 'NF && $1 != "commands:" {print $1}')
[ "$(echo $cmds)" != "" ] || fail "no command list in --help"
for c in $cmds; do
    [ "$c" = help ] && continue
    "$FIOSCOPE" help "$c" > a.txt || fail "help $c: exit $?"
    "$FIOSCOPE" "$c" --help > b.txt || fail "$c --help: exit $?"
    cmp -s a.txt b.txt || fail "'help $c' differs from '$c --help'"
    head -n 1 a.txt | grep -q "^usage: fioscope $c" || fail "$c --help has no usage line"
done
echo "$cmds" | grep -qx metrics || fail "metrics is not listed in --help"
"$FIOSCOPE" help > a.txt && "$FIOSCOPE" --help > b.txt && cmp -s a.txt b.txt || fail "help alone"

# --- did you mean (exit 2, the nearest name on stderr)
usage_err() { # expected-substring command...
    local want=$1; shift
    local rc=0
    "$FIOSCOPE" "$@" > out.txt 2> err.txt || rc=$?
    [ $rc = 2 ] || fail "'$*' exit $rc, expected 2"
    grep -qF -- "$want" err.txt || fail "'$*': no \"$want\" in: $(cat err.txt)"
    [ ! -s out.txt ] || fail "'$*' wrote to stdout"
}
usage_err "unknown command 'tabel' (did you mean 'table'?)" tabel x.log
usage_err "unknown command 'metric' (did you mean 'metrics'?)" metric
usage_err "(did you mean 'table'?)" help tabel
usage_err "unknown option '--metrix' (did you mean '--metrics'?)" table --metrix iops x.log
usage_err "unknown option '--jsnl' (did you mean '--jsonl'?)" parse --jsnl x.log
usage_err "unknown option '--lable-from=job' (did you mean '--label-from'?)" parse --lable-from=job x.log
usage_err "unknown option '--fial-on=regression:5' (did you mean '--fail-on'?)" compare --fial-on=regression:5 a -- b
usage_err "unknown metric 'iopz' (did you mean 'iops'?" table -m label,iopz x.log
usage_err "unknown metric 'read.clat_ns.p99x'" table -m read.clat_ns.p99x x.log
usage_err "unknown metric 'read.iosp' (did you mean 'read.iops'?" compare -m read.iosp a -- b
usage_err "unknown metric 'clt.p99' (did you mean 'clat.p99'?" chart --y clt.p99 x.log
usage_err "--format takes json, jsonl, csv or tsv, not 'cvs' (did you mean 'csv'?)" parse -f cvs x.log
usage_err "--format takes text, json or names, not 'jsno' (did you mean 'json'?)" metrics --format jsno
usage_err "unknown option '--qiet'" metrics --qiet

# --- fioscope metrics: every name with a unit and a meaning, as text and JSON
"$FIOSCOPE" metrics > m.txt
"$FIOSCOPE" metrics --format json > m.json
"$FIOSCOPE" metrics --format names > names.txt
grep -q "no description yet" m.txt && fail "a name without meaning: $(grep 'no description' m.txt)"
$PY - m.json names.txt <<'PY' || fail "metrics --format json"
import json, sys
d = json.load(open(sys.argv[1]))
names = {x["name"]: x for x in d["names"] if x["kind"] != "field"}
fields = {x["name"]: x for x in d["names"] if x["kind"] == "field"}
assert d["directions"] == ["read", "write", "trim", "sync", "mixed"]
for x in d["names"]:
    assert x["kind"] in ("dimension", "metric", "field") and x["help"] and x["unit"], x
# the dimensions of the analysis, every one
for dim in ("system rw bs iodepth numjobs ioengine direct workload dir label file heading "
            "jobname fio_version host repeat").split():
    assert names[dim]["kind"] == "dimension" and names[dim]["unit"] == "text", dim
# one name, one unit
assert names["DIR.bw"]["unit"] == "KiB/s" and names["DIR.bw_bytes"]["unit"] == "bytes/s"
assert names["bw"]["unit"] == "bytes/s" and names["iops"]["unit"] == "iops"
assert names["DIR.clat_ns.pNN"]["unit"] == "ns" and names["clat.pNN"]["unit"] == "ns"
assert names["usr_cpu"]["unit"] == "%" and names["DIR.runtime"]["unit"] == "ms"
assert fields["clat_ns.percentile.NN"]["unit"] == "ns" and fields["dir"]["unit"] == "text"
listed = set(open(sys.argv[2]).read().split())
for n in ("read.iops", "write.clat_ns.p99", "trim.bw", "mixed.lat_ns.mean", "clat.p99.9",
          "system", "workload", "iops", "cpu", "ctx"):
    assert n in listed, n
PY
# every concrete name that `metrics --format names` prints is a metric table takes
names_list=$(grep -v '^pNN$' names.txt | paste -sd, -)
"$FIOSCOPE" table -q -m "$names_list" -f csv "$C/a_randread_psync.txt" > all.csv ||
    fail "table rejects a name that metrics lists"

# --- parse --format csv|tsv: one row per job and direction, JSON paths, JSON units
"$FIOSCOPE" parse -q "$C/c_randrw70_libaio_4jobs_group.txt" "$C/g_json_nogroup.json" > doc.json
"$FIOSCOPE" parse -q -f csv "$C/c_randrw70_libaio_4jobs_group.txt" "$C/g_json_nogroup.json" > flat.csv
"$FIOSCOPE" parse -q --format tsv "$C/c_randrw70_libaio_4jobs_group.txt" "$C/g_json_nogroup.json" > flat.tsv
"$FIOSCOPE" table -q -f csv -m label,dir,read.bw,read.bw_bytes,bw,read.bw_mean \
    "$C/c_randrw70_libaio_4jobs_group.txt" > tab.csv
$PY - doc.json flat.csv flat.tsv tab.csv <<'PY' || fail "flat export"
import csv, json, sys
doc = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
trows = list(csv.DictReader(open(sys.argv[3], newline=""), delimiter="\t"))
assert len(rows) == len(trows) and rows[0].keys() == trows[0].keys()
head = list(rows[0].keys())
assert head[:4] == ["id", "label", "source.path", "source.member"], head[:6]
assert "clat_ns.percentile.99.000000" in head and "read.iops" not in head
# one row per job and direction that did I/O
want = []
for run in doc["runs"]:
    for job in run["jobs"]:
        for d in ("read", "write", "trim", "sync", "mixed"):
            o = job.get(d)
            if o and any(v for k, v in o.items() if isinstance(v, (int, float))):
                want.append((run["id"], job["jobname"], d, o))
assert [(r["id"], r["jobname"], r["dir"]) for r in rows] == [w[:3] for w in want], rows
# the columns carry the JSON's numbers, units and all (bw in KiB/s, bw_bytes in bytes/s)
for r, (_, _, _, o) in zip(rows, want):
    for k in ("bw", "bw_bytes", "iops", "io_bytes", "runtime"):
        assert float(r[k]) == float(o[k]), (k, r[k], o[k])
    assert float(r["clat_ns.mean"]) == float(o["clat_ns"]["mean"])
    p99 = o["clat_ns"].get("percentile", {}).get("99.000000")
    if p99 is not None:
        assert float(r["clat_ns.percentile.99.000000"]) == float(p99)
# the same name in `table -f csv` has the same unit: read.bw KiB/s, read.bw_bytes bytes/s
tab = list(csv.DictReader(open(sys.argv[4], newline="")))
job = doc["runs"][0]["jobs"][0]
t = [x for x in tab if x["dir"] == "read"][0]
assert float(t["read.bw"]) == float(job["read"]["bw"]), (t["read.bw"], job["read"]["bw"])
assert float(t["read.bw_bytes"]) == float(job["read"]["bw_bytes"])
assert float(t["read.bw_mean"]) == float(job["read"]["bw_mean"])
assert float(t["bw"]) == float(job["read"]["bw_bytes"])  # bw: bytes/s, as `metrics` says
PY
# a job that did no I/O at all still has its row (dir empty)
"$FIOSCOPE" parse -q -f csv "$FSC_CORPUS/fio-3.0/x_direct_layout_error.txt" > err.csv || true
[ "$(wc -l < err.csv)" -ge 2 ] || fail "failed job lost its row: $(cat err.csv)"

# --- status lines on stderr, -q silences them; data alone on stdout
"$FIOSCOPE" report -o rep "$C/g_json_nogroup.json" > out.txt 2> err.txt
[ ! -s out.txt ] && grep -q "report written to rep/index.html" err.txt || fail "report status line"
"$FIOSCOPE" report -q -o rep2 "$C/g_json_nogroup.json" > out.txt 2> err.txt
[ ! -s out.txt ] && [ ! -s err.txt ] || fail "report -q"

# --- exit statuses: 0 read, 1 unread or no run (named), 2 usage
mkdir logs && cp "$C/a_randread_psync.txt" "$C/a_randread_psync.cmd" logs/ && echo notes > logs/README
"$FIOSCOPE" table logs > /dev/null 2> err.txt || fail "sidecars: exit $?"
[ "$(cat err.txt)" = "fioscope: 3 inputs: 1 ok, 2 no runs, 0 errors; 1 run" ] ||
    fail "sidecars were reported: $(cat err.txt)"
"$FIOSCOPE" table -q logs > /dev/null 2> err.txt && [ ! -s err.txt ] || fail "table -q logs"
rc=0; "$FIOSCOPE" table logs/README > /dev/null 2> err.txt || rc=$?
[ $rc = 1 ] && grep -qx "fioscope: logs/README: no fio run found" err.txt || fail "named README: $rc"
rc=0; "$FIOSCOPE" parse missing.log > /dev/null 2>&1 || rc=$?
[ $rc = 1 ] || fail "missing input: exit $rc"
rc=0; "$FIOSCOPE" parse > /dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "no INPUT: exit $rc"

# --- compare --fail-on=regression:PCT
B="$C/a_randread_psync.txt" N="$FSC_CORPUS/fio-3.13/a_randread_psync.txt"   # IOPS +10%, p99 -38%
"$FIOSCOPE" compare -q -m iops,clat.p99 --fail-on=regression:5 "$B" -- "$N" > /dev/null ||
    fail "no regression B->N must exit 0"
rc=0; "$FIOSCOPE" compare -m iops,clat.p99 --fail-on=regression:5 "$N" -- "$B" > out.txt 2> err.txt || rc=$?
[ $rc = 1 ] || fail "regression N->B: exit $rc"
grep -q "regression: randread: iops -9.2% (over 5%)" err.txt || fail "regression line: $(cat err.txt)"
grep -q "regression: randread: clat.p99 +61.0% (over 5%)" err.txt || fail "p99 line: $(cat err.txt)"
grep -q "IOPS" out.txt || fail "the comparison itself is still printed"
"$FIOSCOPE" compare -q -m iops --fail-on=regression:10 "$N" -- "$B" > /dev/null ||
    fail "-9.2% is within 10%"
rc=0; "$FIOSCOPE" compare -q -m iops --fail-on=error,regression:5 "$N" -- "$B" > /dev/null || rc=$?
[ $rc = 1 ] || fail "combined --fail-on: exit $rc"
usage_err "--fail-on takes regression:PCT" compare --fail-on=regression:x "$N" -- "$B"
# three sides: each side against the baseline, the side named
O="$FSC_CORPUS/fio-2.21/a_randread_psync.txt"                                   # IOPS +396%
rc=0; "$FIOSCOPE" compare -m iops --fail-on=regression:5 "$N" -- "$B" -- "$O" > out.txt 2> err.txt || rc=$?
[ $rc = 1 ] && grep -q "regression: randread: fio-3.33: iops -9.2% (over 5%)" err.txt &&
    [ "$(grep -c 'regression:' err.txt)" = 1 ] || fail "three sides: $rc $(cat err.txt)"
"$FIOSCOPE" compare -q -m iops --fail-on=regression:5 "$N" -- "$O" > /dev/null || fail "an improvement"
# --- the contract lives in the repository, and the README sends readers there
: "${FSC_SOURCE_DIR:?}"
grep -q '(docs/contract.md)' "$FSC_SOURCE_DIR/README.md" || fail "README does not link docs/contract.md"
grep -q 'shared/CONTRACT' "$FSC_SOURCE_DIR/README.md" && fail "README points outside the repository"
head -n 5 "$FSC_SOURCE_DIR/README.md" | grep -q '^make demo ' &&
    head -n 5 "$FSC_SOURCE_DIR/README.md" | grep -q '^make test ' || fail "README's first two commands"
for c in $cmds; do
    [ "$c" = help ] || grep -q "fioscope $c" "$FSC_SOURCE_DIR/docs/contract.md" ||
        fail "docs/contract.md does not describe '$c'"
done
echo "cli: all passed"
