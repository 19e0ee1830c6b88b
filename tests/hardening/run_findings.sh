#!/usr/bin/env bash
# Hardening, round two (issue #18): one case per finding, with the attack's input
# shape. Each case runs on its own and the script reports every failing case, so that
# it can also be pointed at an older binary (FIOSCOPE=old/fioscope) to see which
# attacks worked there. Other findings have their cases next to the code that fixed
# them (report -o, the engine, JSON pieces); the complexity check
# (run_complexity.sh) runs every shape at growing sizes.
source "$(dirname "$0")/cases_lib.sh"

# ---- M1: long key=value lists, percentile lists, job options, job definitions ----
case_m1() {
    $PY - "$G" "$SAMPLE" <<'PY'
import json, sys
g = open(sys.argv[1]).read()
# 150,000 keys on one "IO depths" line (1.7 MB), the last repeating the first
items = ", ".join("%d=0.0%%" % i for i in range(150000))
open("m1-depths.txt", "w").write(g.replace("  IO depths    : 1=100.0%", "  IO depths    : " + items + ", 0=7.5%"))
# a clat percentile list of 100,000 rows (3 MB), then its first percentile again in
# the last row (replaced in place). fio's rows rise: a row that begins below the row
# above it is another list's, whose title was lost (not read), so they rise here too
import re
rows = "".join("     | %d.%06dth=[%d],\n" % (divmod(i * 999, 1000000) + (i,)) for i in range(1, 100001))
rows += "     | 99.999999th=[1], 0.000999th=[77]\n"
open("m1-pctl.txt", "w").write(re.sub(r"(    clat percentiles \(usec\):\n)(     \|.*\n)+", lambda m: m.group(1) + rows, g, count=1))
d = json.load(open(sys.argv[2]))
d["jobs"][0]["job options"] = {("opt%d" % i): str(i) for i in range(100000)}
d["jobs"][0]["read"]["clat_ns"]["percentile"] = {"%d.%06d" % (i // 1000000, i % 1000000): i for i in range(100000, 0, -1)}
d["jobs"][0]["iodepth_level"] = {str(i): 0.0 for i in range(100000)}
json.dump(d, open("m1-json.json", "w"))
# 100,000 one-line job definitions, then a run of the last one
defs = "".join("j%d: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1\n" % i for i in range(100000))
open("m1-defs.txt", "w").write(defs + g.replace("randread: (g", "j99999: (g", 2))
PY
    limited "$FIOSCOPE" parse -q --jsonl m1-depths.txt m1-pctl.txt m1-json.json m1-defs.txt > m1.jsonl ||
        fail "M1: exit $? (137/152: the CPU limit of ${cpu_limit}s)"
    $PY - <<'PY' || fail "M1: wrong values"
import json
runs = {o["source"]["path"]: o for o in map(json.loads, open("m1.jsonl")) if "input" not in o}
lvl = runs["m1-depths.txt"]["jobs"][0]["iodepth_level"]
keys = list(lvl)
assert len(keys) == 150001 and keys[-1] == ">=64", (len(keys), keys[-1])
assert keys[0] == "0" and lvl["0"] == 7.5 and lvl["1"] == 0, (keys[:3], lvl["0"])  # replaced in place
p = runs["m1-pctl.txt"]["jobs"][0]["read"]["clat_ns"]["percentile"]
ks = [float(k) for k in p]
assert ks == sorted(ks) and len(ks) == len(set(ks)), "percentiles out of order"
assert len(ks) == 100001 and p["12.332655"] == 12345000 and p["0.000999"] == 77000, (len(ks), p.get("0.000999"))
j = runs["m1-json.json"]["jobs"][0]
assert len(j["job options"]) == 100000 and j["job options"]["opt99999"] == "99999"
ks = [float(k) for k in j["read"]["clat_ns"]["percentile"]]
assert ks == sorted(ks) and len(ks) == 100000
assert len(j["iodepth_level"]) == 100000
d = runs["m1-defs.txt"]["jobs"][0]
assert d["jobname"] == "j99999" and d["job options"]["ioengine"] == "psync", d.get("job options")
PY
}

# ---- M2: memory a small input can make fioscope take ----
case_m2() {
    # 166 KB of gzip: 1.5 million one-line job blocks (57 MB of text, one run); two
    # headers in turn (one header again right after itself is read once)
    $PY -c '
import gzip
hdr = b"j: (groupid=0, jobs=1): err= 0: pid=1\nk: (groupid=0, jobs=1): err= 0: pid=2\n"
open("m2-jobs.gz", "wb").write(gzip.compress(hdr * 750000, 9))
mini = b"j: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\n\n"
open("m2-small.gz", "wb").write(gzip.compress(mini * 2000, 9))
'
    local budget=256M
    $asan && budget=128M
    set +e
    /usr/bin/time -f '%e %M' -o time.txt "$FIOSCOPE" parse --jsonl -q -j 1 --max-memory=$budget m2-jobs.gz m2-small.gz "$G" > m2.jsonl
    local rc=$?
    set -e
    [ "$rc" = 1 ] || fail "M2: exit $rc, want 1"
    manifest < m2.jsonl > got.txt
    expect_manifest got.txt <<EOF
m2-jobs.gz|None|error|0|memory budget exceeded: parsing it needs more than ${budget%M} MiB (--max-memory=SIZE raises the budget)
m2-small.gz|None|ok|1|None
$G|None|ok|1|None
EOF
    read -r secs kb < <(tail -n 1 time.txt)
    echo "M2: 57 MB of job blocks stopped at a ${budget} budget in ${secs}s, max RSS ${kb} KiB"
    $asan || [ "$kb" -lt $((400 * 1024)) ] || fail "M2: ${kb} KiB resident for a ${budget} budget"
    # the option sets it: 2,000 jobs fit in 16 MiB, not in 4 MiB
    "$FIOSCOPE" parse --jsonl -q --max-memory=16M m2-small.gz > /dev/null || fail "M2: 16M budget"
    "$FIOSCOPE" parse --jsonl -q --max-memory=4M m2-small.gz > m2b.jsonl || true
    manifest < m2b.jsonl | grep -q "|error|0|memory budget exceeded: parsing it needs more than 4 MiB" ||
        fail "M2: 4M budget"
    # a bad value is a usage error
    set +e
    "$FIOSCOPE" parse -q --max-memory=lots m2-small.gz > /dev/null 2> err.txt
    rc=$?
    set -e
    [ "$rc" = 2 ] && grep -q -- "--max-memory takes a size" err.txt || fail "M2: --max-memory=lots: exit $rc"
}

# ---- M3: text tables padded to the widest cell ----
case_m3() {
    $PY - "$SAMPLE" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
jobs = []
for i in range(500):
    j = copy.deepcopy(d["jobs"][0]); j["jobname"] = "job%d" % i; jobs.append(j)
j = copy.deepcopy(d["jobs"][0]); j["jobname"] = "L" * 1000000 + "END"; jobs.append(j)
d["jobs"] = jobs
json.dump(d, open("m3.json", "w"))
PY
    for fmt in text md; do
        limited "$FIOSCOPE" table -q --format $fmt m3.json > "m3.$fmt" || fail "M3: table $fmt exit $?"
        [ "$(stat -c %s "m3.$fmt")" -lt 200000 ] || fail "M3: table $fmt wrote $(stat -c %s "m3.$fmt") bytes"
        grep -q 'LLL…LLL.*END' "m3.$fmt" || fail "M3: the long name is not cut in the middle ($fmt)"
        limited "$FIOSCOPE" compare -q --format $fmt m3.json -- m3.json > "c3.$fmt" || fail "M3: compare $fmt exit $?"
        [ "$(stat -c %s "c3.$fmt")" -lt 1000000 ] || fail "M3: compare $fmt wrote $(stat -c %s "c3.$fmt") bytes"
    done
    # the full value stays in JSON and CSV
    "$FIOSCOPE" table -q --format csv --metrics jobname m3.json > m3.csv
    "$FIOSCOPE" table -q --format json m3.json > m3t.json
    $PY -c '
import json
name = "L" * 1000000 + "END"
assert open("m3.csv").read().splitlines()[-1] == name
assert json.load(open("m3t.json"))["rows"][-1]["values"]["label"] == name
' || fail "M3: the full name is not in CSV and JSON"
}

# ---- M7: terminal escapes from inputs ----
case_m7() {
    $PY - "$G" "$SAMPLE" <<'PY'
import io, json, sys, tarfile
g = open(sys.argv[1], "rb").read()
with tarfile.open("m7.tar", "w") as t:
    for name in ("\x1b]0;pwned\x07title.txt", "\x1b[2J\x1b[1A\x1b[Kclear.txt", "c1\u009b2Jx.txt"):
        data = bytes(range(32)) * 64  # binary: an error entry, named on stderr
        info = tarfile.TarInfo(name); info.size = len(data); t.addfile(info, io.BytesIO(data))
    info = tarfile.TarInfo("link"); info.type = tarfile.SYMTYPE; info.linkname = "\x1b]2;evil\x07"
    t.addfile(info)
d = json.load(open(sys.argv[2]))
names = ["esc\x1b[31mred", "csi\u009b2J", "rlo\u202egnp.exe", "lri\u2066x\u2069", "del\x7f", "nel\u0085"]
d["jobs"] = [dict(d["jobs"][i % len(d["jobs"])], jobname=n) for i, n in enumerate(names)]
json.dump(d, open("m7.json", "w"))
open("m7-\x1b[2Jpath.txt", "w").write("nothing\n")
PY
    set +e
    "$FIOSCOPE" parse -o m7-all.json m7.tar m7.json m7-*path.txt 2> m7-err.txt
    set -e
    grep -q 'title.txt' m7-err.txt || fail "M7: no diagnostic for the members"
    for f in text md csv tsv html; do
        "$FIOSCOPE" table -q --format $f m7.json > "m7.$f" || fail "M7: table $f"
        "$FIOSCOPE" compare -q --format $f m7.json -- m7.json > "m7c.$f" 2>/dev/null || [ $f = html ] ||
            fail "M7: compare $f"
    done
    "$FIOSCOPE" parse -q --jsonl m7.json > m7.jsonl || fail "M7: parse"
    $PY - m7-err.txt m7.text m7.md m7.csv m7.tsv m7.html m7c.text m7c.md m7c.csv m7c.tsv m7.jsonl <<'PY' || fail "M7"
import re, sys
bad = re.compile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]")
for f in sys.argv[1:]:
    try:
        text = open(f, encoding="utf-8").read()
    except FileNotFoundError:
        continue
    if f.endswith(".tsv") or f.endswith(".text") or f.endswith(".md") or f.endswith("err.txt") or f.endswith(".jsonl"):
        text = text.replace("\t", " ")
    m = bad.search(text)
    assert not m, "%s: raw %r at %d" % (f, m.group(), m.start())
err = open(sys.argv[1], encoding="utf-8").read()
assert "\\x1B]0;pwned\\x07title.txt" in err and "c1\\u009B2Jx.txt" in err, err
assert "m7-\\x1B[2Jpath.txt" in err, err
jl = open(sys.argv[-1]).read()
assert "csi\\u009b2J" in jl and "rlo\\u202egnp.exe" in jl and "esc\\u001b[31mred" in jl
assert "symbolic link to \\u001b]2;evil\\u0007" in open("m7-all.json").read()  # the manifest keeps it, escaped
PY
}

# ---- L1: a tar with a damaged block ----
case_l1() {
    $PY - "$G" <<'PY'
import io, tarfile, sys
g = open(sys.argv[1], "rb").read()
with tarfile.open("l1.tar", "w", format=tarfile.GNU_FORMAT) as t:
    for i in range(5):
        info = tarfile.TarInfo("m%d.txt" % i); info.size = len(g); t.addfile(info, io.BytesIO(g))
b = bytearray(open("l1.tar", "rb").read())
step = 512 * (1 + (len(g) + 511) // 512)
b[2 * step:2 * step + 512] = bytes(range(256)) * 2       # member 2's header block
open("l1-header.tar", "wb").write(b)
b = bytearray(open("l1.tar", "rb").read())
b[step:3 * step] = b"\x01" * (2 * step)                   # members 1 and 2, headers and data
open("l1-stretch.tar", "wb").write(b)
PY
    gzip -c l1-header.tar > l1-header.tgz
    set +e
    "$FIOSCOPE" parse --jsonl -q l1-header.tar l1-header.tgz l1-stretch.tar > l1.jsonl
    set -e
    manifest < l1.jsonl > got.txt
    expect_manifest got.txt <<'EOF'
l1-header.tar|m0.txt|ok|1|None
l1-header.tar|m1.txt|ok|1|None
l1-header.tar|None|error|0|damaged archive: 2560 bytes skipped after member 'm1.txt' (Damaged tar archive); the members after them are read
l1-header.tar|m3.txt|ok|1|None
l1-header.tar|m4.txt|ok|1|None
l1-header.tgz|m0.txt|ok|1|None
l1-header.tgz|m1.txt|ok|1|None
l1-header.tgz|None|error|0|damaged archive: 2560 bytes skipped after member 'm1.txt' (Damaged tar archive); the members after them are read
l1-header.tgz|m3.txt|ok|1|None
l1-header.tgz|m4.txt|ok|1|None
l1-stretch.tar|m0.txt|ok|1|None
l1-stretch.tar|None|error|0|damaged archive: 5120 bytes skipped after member 'm0.txt' (Damaged tar archive); the members after them are read
l1-stretch.tar|m3.txt|ok|1|None
l1-stretch.tar|m4.txt|ok|1|None
EOF
}

# ---- L2: stdin, pipes and devices are capped like archive members ----
case_l2() {
    set +e
    limited "$FIOSCOPE" parse --jsonl -q --max-member-size=16M /dev/zero - "$G" < /dev/zero > l2.jsonl
    local rc=$?
    set -e
    [ "$rc" = 1 ] || fail "L2: exit $rc, want 1"
    manifest < l2.jsonl > got.txt
    expect_manifest got.txt <<EOF
/dev/zero|None|error|0|size limit: more than 16777216 bytes from a pipe or device (--max-member-size); the rest was not read
-|None|error|0|size limit: more than 16777216 bytes from a pipe or device (--max-member-size); the rest was not read
$G|None|ok|1|None
EOF
    # an endless text stream stops at the cap too, read in pieces on the way
    set +e
    yes "fio-3.33 nothing here" | limited "$FIOSCOPE" parse --jsonl -q --max-member-size=8M - > l2b.jsonl
    set -e
    manifest < l2b.jsonl | grep -qx -- "-|None|error|0|size limit: more than 8388608 bytes from a pipe or device (--max-member-size); the rest was not read" ||
        fail "L2: endless text: $(manifest < l2b.jsonl)"
    # a log through a pipe still reads
    cat "$G" | "$FIOSCOPE" parse --jsonl -q - | manifest | grep -qx -- "-|None|ok|1|None" || fail "L2: a log on stdin"
}

# ---- L3: CSV cells that start a formula after a separator of another locale ----
case_l3() {
    $PY - "$SAMPLE" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = ["x;=1+2", "x,=1+2", "a;-2+3", "b;@SUM(A1)", "c;+cmd", "plain;text"]
d["jobs"] = [dict(d["jobs"][i % len(d["jobs"])], jobname=n) for i, n in enumerate(names)]
json.dump(d, open("l3.json", "w"))
PY
    "$FIOSCOPE" table -q --format csv --metrics jobname l3.json > l3.csv
    "$FIOSCOPE" table -q --format tsv --metrics jobname l3.json > l3.tsv
    "$FIOSCOPE" compare -q --format csv --metrics iops l3.json -- l3.json > l3c.csv
    $PY - <<'PY' || fail "L3"
import csv
rows = [l.rstrip("\n") for l in open("l3.csv")][1:]
assert rows == ['"x;=1+2"', '"x,=1+2"', '"a;-2+3"', '"b;@SUM(A1)"', '"c;+cmd"', '"plain;text"'], rows
# a spreadsheet that splits on ';' (and honours quotes) gets one text cell per name
for r in csv.reader(open("l3.csv"), delimiter=";"):
    assert len(r) == 1 and not r[0].lstrip("\"").startswith(("=", "+", "-", "@")), r
tsv = [l.rstrip("\n") for l in open("l3.tsv")][1:]
assert tsv == ["x;'=1+2", "x,'=1+2", "a;'-2+3", "b;'@SUM(A1)", "c;'+cmd", "plain;text"], tsv
for line in open("l3c.csv").read().splitlines()[1:]:
    assert line.startswith('"') or line.startswith("geomean,"), line
PY
}

# ---- L7: UTF-32 (with a byte order mark or without), and only the archive formats users need ----
case_l7() {
    $PY - "$G" <<'PY'
import sys
g = open(sys.argv[1], encoding="utf-8").read()
open("l7-32le.txt", "wb").write(g.encode("utf-32"))                 # FF FE 00 00
open("l7-32be.txt", "wb").write(b"\0\0\xfe\xff" + g.encode("utf-32-be"))
open("l7-32le-nobom.txt", "wb").write(g.encode("utf-32-le"))
open("l7.7z", "wb").write(b"7z\xbc\xaf\x27\x1c\0\x04" + bytes(200))
open("l7.rar", "wb").write(b"Rar!\x1a\x07\x01\0" + bytes(200))
open("l7.lrz", "wb").write(b"LRZI\0\x06" + bytes(200))     # libarchive would run lrzip(1)
open("l7.cpio", "wb").write(b"\xc7\x71" + bytes(200))
PY
    set +e
    "$FIOSCOPE" parse --jsonl -q l7-32le.txt l7-32be.txt l7-32le-nobom.txt l7.7z l7.rar l7.lrz l7.cpio > l7.jsonl
    set -e
    manifest < l7.jsonl > got.txt
    local why="not read (fioscope reads tar, zip, gzip, xz, zstd and bzip2)"
    expect_manifest got.txt <<EOF
l7-32le.txt|None|ok|1|None
l7-32be.txt|None|ok|1|None
l7-32le-nobom.txt|None|ok|1|None
l7.7z|None|error|0|7-Zip archive: $why
l7.rar|None|error|0|RAR archive: $why
l7.lrz|None|error|0|lrzip data: $why
l7.cpio|None|error|0|cpio archive: $why
EOF
    [ "$(grep -c '"io_bytes":89653248' l7.jsonl)" -ge 3 ] || fail "L7: a UTF-32 run lost its numbers"
}

# ---- found on the second look: report of runs without latency buckets (a two-line
# log, a minimal JSON job) crashed in the bucket chart (keys[0] of no keys) ----
case_report_no_buckets() {
    printf 'j: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=1, BW=1B/s (1B/s)(1B/1msec)\n' > nb.txt
    "$FIOSCOPE" report -q -o nb nb.txt > /dev/null || fail "report: exit $?"
    [ -s nb/index.html ] && [ -s nb/report.xlsx ] || fail "report: files missing"
}

run_cases m1 m2 m3 m7 l1 l2 l3 l7 report_no_buckets
