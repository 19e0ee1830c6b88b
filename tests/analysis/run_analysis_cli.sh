#!/usr/bin/env bash
# The analysis from the command line, on real documents: systems, workload keys, pivots,
# N-way and by-system comparisons, "nothing pairs", one run per fio invocation, the fio
# 3.33 unified_rw_reporting=both file, system names that need escaping, and exit codes.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=${FSC_CORPUS:?}
seed=$corpus/../seeds/002_6f6d330e65d35f74.txt
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
ok() { checks=$((checks + 1)); if [ "$1" != 0 ]; then echo "FAIL: $2"; fails=$((fails + 1)); fi; }
run() { "$FIOSCOPE" "$@" 2>"$tmp/err"; }

# 1. two documents whose job names and numjobs differ line up by rw,bs,iodepth
run table --pivot -q --format tsv --workload-key rw,bs,iodepth "$here/old-box.md" "$here/new-box.md" >"$tmp/p"
$py - "$tmp/p" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
assert rows[0] == ["rw", "bs", "iodepth", "dir", "old-box", "new-box"], rows[0]
assert [r[:4] for r in rows[1:]] == [["randread", "4k", "1", "read"], ["randwrite", "4k", "1", "write"]], rows
# medians of the four runs of each side (1192k 978k 809k 943k; 1686k 1840k 1893k 2194k)
assert rows[1][4:] == ["960500", "1866500"], rows[1]
assert rows[2][4:] == ["771000", "2016000"], rows[2]
PY
ok $? "pivot --workload-key rw,bs,iodepth lines up old-box and new-box"
run table --pivot -q --format tsv "$here/old-box.md" "$here/new-box.md" >"$tmp/p2"
[ "$(wc -l <"$tmp/p2")" = 5 ]
ok $? "with numjobs in the key the two documents share no workload (4 rows)"

# 2. compare: 4+4 repeats give a verdict, 1+1 none
run compare -q --format json -m iops --workload-key rw,bs,iodepth "$here/old-box.md" -- "$here/new-box.md" >"$tmp/c.json"
$py - "$tmp/c.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
assert c["sides"] == ["old-box", "new-box"] and c["match"] == "workload", (c["sides"], c["match"])
rows = {r["label"]: r for r in c["metrics"][0]["rows"]}
rr, rw = rows["randread 4k qd1"], rows["randwrite 4k qd1"]
assert rr["base"]["n"] == 4 and rr["new"]["n"] == 4 and rr["significant"] is True, rr
assert abs(rr["p"] - 2 / 70) < 1e-9 and rr["verdict"] == 1, rr
assert rw["base"]["n"] == 1 and rw["significant"] is None and rw["p"] is None and rw["verdict"] == 0, rw
PY
ok $? "compare old-box -- new-box: significant 4+4, no verdict 1+1"
run compare -q -m iops --workload-key rw,bs,iodepth "$here/old-box.md" -- "$here/new-box.md" >"$tmp/c.txt"
grep -q '~ (n=1+1)' "$tmp/c.txt" && grep -q '(p=0.029 n=4+4)' "$tmp/c.txt"
ok $? "text shows ~ (n=1+1) and the p of 4+4"

# 3. two parts of one article: pair by workload, or say why not
sed -n '/^2\. RAID 0$/,/^3\. RAID 1$/p' "$seed" >"$tmp/raid0.txt"
sed -n '/^4\. RAID 5$/,/^5\. RAID 6$/p' "$seed" >"$tmp/raid5.txt"
run compare -q -m iops "$tmp/raid0.txt" -- "$tmp/raid5.txt" >"$tmp/r.txt"
ok $? "compare raid0.txt -- raid5.txt exits 0"
grep -q '^randwrite 4k qd32 x8  *87.9k  *29.4k' "$tmp/r.txt" && grep -q 'matched by workload' "$tmp/r.txt"
ok $? "raid0 -- raid5 pairs by workload"
run compare -q -m iops --match label "$tmp/raid0.txt" -- "$tmp/raid5.txt" >"$tmp/r2.txt"
rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/r2.txt" ] && grep -q 'nothing pairs.*--match workload pairs 7 rows' "$tmp/err"
ok $? "--match label: nothing pairs, names --match workload, exit 1 (rc $rc)"

# 4. three versions side by side; each multi-format file counts once
# (the .cmd files beside the outputs hold no run: exit 0 or 1, as the input layer decides)
run compare -q --format json -m iops "$corpus/fio-3.0/" -- "$corpus/fio-3.13/" -- "$corpus/fio-3.33/" >"$tmp/v.json"
[ $? -le 1 ] && [ -s "$tmp/v.json" ]
ok $? "compare fio-3.0/ -- fio-3.13/ -- fio-3.33/ works"
$py - "$tmp/v.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
assert c["sides"] == ["fio-3.0", "fio-3.13", "fio-3.33"], c["sides"]
rows = {r["label"]: r for r in c["metrics"][0]["rows"]}
for f in ("g_normal_json.txt", "g_normal_terse_json.txt"):
    r = rows[f + " › randread"]
    assert [s["value"]["n"] for s in r["sides"]] == [1, 1, 1], (f, r["sides"])
    assert all(s.get("significant", None) is None for s in r["sides"]), r["sides"]
# the JSON's own number for fio 3.33 (10378.310845 in the terse+JSON file)
r = rows["g_normal_terse_json.txt › randread"]
assert r["sides"][2]["value"]["median"] == 10378.310845, r["sides"][2]
PY
ok $? "N-way: sides named by folder, normal+json and normal+terse+json count once"

# 5. unified_rw_reporting=both: read, write and a total with numbers
run table -q --format csv -m dir,iops "$corpus/fio-3.33/n_unified_rw_reporting_both.txt" >"$tmp/u.csv"
[ "$(cat "$tmp/u.csv")" = "$(printf 'dir,iops\nread,52600\nwrite,22800\ntotal,75400')" ]
ok $? "unified both: read 52.6k, write 22.8k, total 75.4k"
run parse --jsonl -q "$corpus/fio-3.33/n_unified_rw_reporting_both.txt" >"$tmp/u.jsonl"
grep -q "fio printed the job's mixed IOPS, bandwidth and bytes as 0" "$tmp/u.jsonl"
ok $? "unified both: a warning says where the total came from"

# 6. system names with CJK, |, comma and quotes survive csv, md and html
mkdir -p "$tmp/n/系统 A|x" "$tmp/n/b,\"q\"" && cp "$corpus/fio-3.33/a_randread_psync.txt" "$tmp/n/系统 A|x/" \
    && cp "$corpus/fio-3.13/a_randread_psync.txt" "$tmp/n/b,\"q\"/"
for fmt in csv md html; do
    run table --pivot -q --format $fmt "$tmp/n/系统 A|x/" "$tmp/n/b,\"q\"/" >"$tmp/names.$fmt"
done
$py - "$tmp/names" <<'PY'
import csv, html.parser, sys
want = ["系统 A|x", 'b,"q"']
head = next(csv.reader(open(sys.argv[1] + ".csv", encoding="utf-8")))
assert head[-2:] == want, head
md = open(sys.argv[1] + ".md", encoding="utf-8").read().splitlines()
cells = [c.strip().replace("\\|", "|") for c in md[2][1:-1].split(" | ")] if md[2].startswith("|") else []
assert cells[-2:] == want, md[2]
class TH(html.parser.HTMLParser):
    th, cur = [], None
    def handle_starttag(self, t, a): self.cur = [] if t == "th" else self.cur
    def handle_endtag(self, t):
        if t == "th": self.th.append("".join(self.cur)); self.cur = None
    def handle_data(self, d):
        if self.cur is not None: self.cur.append(d)
p = TH(); p.feed(open(sys.argv[1] + ".html", encoding="utf-8").read())
assert p.th[-2:] == want, p.th
PY
ok $? "system names with CJK, |, comma and quotes survive csv, md, html"

# 7. exit codes: unknown field 2 (nearest named), empty pivot 1
for cmd in parse table report chart; do
    run $cmd --where 'sytem~RAID' "$seed" >/dev/null
    rc=$?
    [ $rc = 2 ] && grep -q "did you mean 'system'" "$tmp/err"
    ok $? "$cmd --where 'sytem~RAID': exit 2 naming system (rc $rc)"
done
run compare --system-from=hedding "$seed" -- "$seed" >/dev/null
[ $? = 2 ] && grep -q "did you mean 'heading'" "$tmp/err"
ok $? "compare --system-from=hedding: exit 2"
run table --pivot --where 'system=nothing' "$seed" >"$tmp/e"
rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/e" ] && grep -q 'nothing to pivot: --where left no row' "$tmp/err"
ok $? "empty pivot: message and exit 1 (rc $rc)"

# 8. parse --where keeps the jobs it selects
run parse -q --where 'system=RAID 6' --where 'rw=read' "$seed" >"$tmp/w.json"
$py -c 'import json,sys; d=json.load(open(sys.argv[1])); l=[r["label"] for r in d["runs"]]; assert l == ["RAID 6 › 4M 顺序读 › 4m_seq_read"], l' "$tmp/w.json"
ok $? "parse --where selects runs"

# 9. the commands that prune runs by --where name systems as the whole input did:
#    RAID 0 alone would otherwise be named by its file, and nothing would match
run chart -q --y iops --where 'system=RAID 0' -o "$tmp/r0.svg" "$seed"
ok $? "chart --where system=RAID 0: drawn ($(cat "$tmp/err"))"
grep -q '>RAID 0<\|RAID 0 ›' "$tmp/r0.svg" && ! grep -q 'RAID 10' "$tmp/r0.svg"
ok $? "chart --where system=RAID 0: the RAID 0 bars only"
run rerun --dry-run --where 'system=RAID 0' "$seed" >"$tmp/rr"
[ "$(grep -c '^# ' "$tmp/rr")" = 5 ]
ok $? "rerun --where system=RAID 0: its 5 runs ($(grep -c '^# ' "$tmp/rr"))"

# 10. hosts a line prefix names: the same job on two nodes (pdsh's "node-1: "), or two
#     hosts' logs through grep -H -A ("node1.log:fsyncw: (groupid=", "node1.log-  write:"),
#     are two systems, not repeats of one; a loop's number before the lines is no host
one=$corpus/fio-3.33/q_randwrite_fsync.txt
{ sed 's/^/node-1: /' "$one"; sed 's/^/node-2: /; s/IOPS=14.4k/IOPS=9.1k/' "$one"; } >"$tmp/pdsh.txt"
run table --pivot -q --format tsv --metrics iops "$tmp/pdsh.txt" >"$tmp/h1"
printf 'rw\tbs\tiodepth\tnumjobs\tdir\tnode-1\tnode-2\nrandwrite\t4k\t1\t1\twrite\t14400\t9100\n' | cmp -s - "$tmp/h1"
ok $? "pdsh: node-1 and node-2 are the pivot's systems ($(tr '\t\n' ' |' <"$tmp/h1"))"
paste -d '\n' <(sed 's/^/alpha: /' "$one") <(sed 's/^/beta: /; s/IOPS=14.4k/IOPS=9.1k/' "$one") >"$tmp/pdsh2.txt"
run table --pivot -q --format tsv --metrics iops "$tmp/pdsh2.txt" >"$tmp/h4"
printf 'rw\tbs\tiodepth\tnumjobs\tdir\talpha\tbeta\nrandwrite\t4k\t1\t1\twrite\t14400\t9100\n' | cmp -s - "$tmp/h4"
ok $? "pdsh, the hosts' lines interleaved: alpha and beta read whole ($(tr '\t\n' ' |' <"$tmp/h4"))"
{ grep -H -A40 groupid "$one" | sed "s|^$one|node1.log|"
  grep -H -A40 groupid "$one" | sed "s|^$one|node2.log|; s/IOPS=14.4k/IOPS=9.1k/"; } >"$tmp/grepA.txt"
run table -q --format tsv --metrics jobname,host,system,iops "$tmp/grepA.txt" >"$tmp/h2"
printf 'jobname\thost\tsystem\tiops\nfsyncw\tnode1.log\tnode1.log\t14400\nfsyncw\tnode2.log\tnode2.log\t9100\n' | cmp -s - "$tmp/h2"
ok $? "grep -H -A: job fsyncw on hosts node1.log and node2.log ($(tr '\t\n' ' |' <"$tmp/h2"))"
{ sed 's/^/4 /' "$one"; sed 's/^/bs=8k: /; s/IOPS=14.4k/IOPS=9.1k/' "$one"; } >"$tmp/loop.txt"
run table -q --format tsv --metrics host,iops "$tmp/loop.txt" >"$tmp/h3"
printf 'host\tiops\n\t14400\n\t9100\n' | cmp -s - "$tmp/h3"
ok $? "a loop's '4 ' and 'bs=8k: ' before the lines name no host ($(tr '\t\n' ' |' <"$tmp/h3"))"

# fio --status-interval=1 (fio 3.33, two jobs, 3 s): four reports of the same processes, each a
# snapshot so far. Every report reads as a run with its jobs' definitions (the three later ones
# print none: they come from the same pids' first report); the analysis counts the last alone
si="$here/status-interval.txt"
"$FIOSCOPE" parse --jsonl "$si" 2>/dev/null >"$tmp/si.jsonl"
$py - "$tmp/si.jsonl" <<'PY'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"id"')]
assert len(runs) == 4, len(runs)
for r in runs:
    assert [j["jobname"] for j in r["jobs"]] == ["si-rr", "si-sw"], r["id"]
    assert [j["job options"]["rw"] for j in r["jobs"]] == ["randread", "write"], r["id"]
    assert r["source"]["fio_version"] == "fio-3.33", r["id"]
assert [r["jobs"][0]["read"]["runtime"] for r in runs] == [892, 1892, 2892, 3001], [r["jobs"][0]["read"]["runtime"] for r in runs]
PY
ok $? "status-interval: four reports, the later ones with their processes' job definitions"
run table -q --format tsv --metrics jobname,rw,bs,iops "$si" >"$tmp/si.tsv"
printf 'jobname\trw\tbs\tiops\nsi-rr\trandread\t4k\t2391\nsi-sw\twrite\t64k\t185000\n' | cmp -s - "$tmp/si.tsv"
ok $? "status-interval: one row a job, the last report's ($(tr '\t\n' ' |' <"$tmp/si.tsv"))"
"$FIOSCOPE" table "$si" 2>&1 >/dev/null | grep -q "3 interim reports left out"
ok $? "status-interval: the three earlier reports are said to be left out"

# latencies by I/O priority (cmdprio_percentage; jobs of two prios summed by group_reporting),
# each fio text alone (fio's JSON taken out) and with its JSON
fx=$here/../oracle/fixtures
text_alone() { awk '$0 == "{" { skip = 1 } !skip { print } $0 == "}" { skip = 0 }' "$1"; }
text_alone "$fx/fio320-cmdprio-randrw.normal+json.txt" >"$tmp/prio320.txt"
run table -q --format tsv --metrics read.clat_ns.p50,read.clat_high_prio.p50,read.clat_low_prio.mean,write.clat_high_prio.max \
    "$tmp/prio320.txt" | tail -1 >"$tmp/prio320.tsv"
[ "$(cat "$tmp/prio320.tsv")" = "$(printf '69000\t54000\t89440\t297000')" ]
ok $? "fio 3.20 cmdprio: the job's clat p50 is its own list's, not the low priority's; high and low read apart ($(tr '\t' ' ' <"$tmp/prio320.tsv"))"
text_alone "$fx/prio-group-reporting.normal+json.txt" >"$tmp/priogr.txt"
run table -q --format tsv --metrics read.prio.2/7.clat.p99,read.prio.2/0.clat.mean,read.prio.1/0.clat.mean "$tmp/priogr.txt" |
    tail -1 >"$tmp/priogr.tsv"
[ "$(cat "$tmp/priogr.tsv")" = "$(printf '190000\t115310\t')" ]
ok $? "fio 3.33 prios by class/level: 2/7 p99, 2/0 mean, no 1/0 ($(tr '\t' ' ' <"$tmp/priogr.tsv"))"
run table -q --format tsv --metrics read.prio.2/0.clat.N "$fx/prio-group-reporting.normal+json.txt" | tail -1 >"$tmp/prion"
[ "$(cat "$tmp/prion")" = 33084 ]
ok $? "with its JSON the priority's sample count is there ($(cat "$tmp/prion"))"
run parse -q --format csv "$tmp/priogr.txt" | head -1 | tr ',' '\n' | grep -qx 'prio.2/7.clat_ns.percentile.99.000000'
ok $? "parse --format csv has a column for each priority's latency (prio.2/7.clat_ns...)"

# block sizes that are not one size: the bs a job used (a write job's of bs=4k,64k is 64k),
# ranges from the text alone, bssplit as written where the JSON says it
text_alone "$fx/bs-per-direction.normal+json.txt" >"$tmp/bs.txt"
run table -q --format tsv --metrics jobname,bs "$tmp/bs.txt" | tail -n +2 | tr '\t\n' ' |' >"$tmp/bs.out"
[ "$(cat "$tmp/bs.out")" = "w 64k|m 4k,16k|r 4k-64k|s 4k-64k|" ]
ok $? "bs from the job lines: $(cat "$tmp/bs.out")"
run table -q --format tsv --metrics jobname,bs "$fx/bs-per-direction.normal+json.txt" | tail -n +2 | tr '\t\n' ' |' >"$tmp/bs.out"
[ "$(cat "$tmp/bs.out")" = "w 64k|m 4k,16k|r 4k-64k|s 4k/50:64k/50|" ]
ok $? "bs from the JSON's options: $(cat "$tmp/bs.out")"

# the run's time: from the text's job headers and from fio's JSON; date orders as dates
text_alone "$fx/psync-randread-4k.normal+json.txt" >"$tmp/rr.txt"
run table -q --format tsv --metrics time,date "$tmp/rr.txt" "$fx/two-groups.normal+json.txt" | tail -n +2 | sort -u | tr '\t\n' ' |' >"$tmp/time.out"
[ "$(cat "$tmp/time.out")" = "Mon Nov 30 03:57:09 2026 2026-11-30|Mon Nov 30 03:57:16 2026 2026-11-30|" ]
ok $? "time and date of a text alone and of a JSON: $(cat "$tmp/time.out")"
run table -q --format tsv --metrics jobname --where 'date>=2026-11-30' --where 'date<2026-12-01' "$tmp/rr.txt" \
    "$fx/names-non-ascii.normal+json.txt" | tail -n +2 | tr '\n' ' ' >"$tmp/date.out"
[ "$(cat "$tmp/date.out")" = "rr " ]
ok $? "--where on date keeps the run of that day ($(cat "$tmp/date.out"))"

echo "$((checks - fails)) passed, $fails failed"
exit $((fails > 0))
