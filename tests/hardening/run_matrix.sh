#!/usr/bin/env bash
# The bad-input matrix (issue #8): each bad input is passed together with a good fio
# 3.33 log; the exit status and manifest entry follow the contract (0 all read, 1 some
# input unreadable or without runs, 2 usage) and the good log's run always comes out
# with its real numbers. Covered elsewhere: directories mixing junk and good logs
# (tests/input/run_walk.sh, mixed.tar in run_archives.sh), tar members "../x" and
# "/abs" (run_archives.sh), gzip bombs (run_bomb.sh), nested JSON, huge JSON numbers
# and 10,000-field terse lines also through the readers alone (tests/fuzz/regress/*,
# replayed by tests/unit/test_fuzz_replay.c).
source "$(dirname "$0")/../input/lib.sh"

cp "$FSC_CORPUS/fio-3.33/a_randread_psync.txt" good.txt # job randread, 85.5MiB read
GOOD_IO=89653248

# parse BAD... good.txt as JSONL into out.jsonl; prints the exit status
parse_with_good() {
    set +e
    "$FIOSCOPE" parse --jsonl -q "$@" good.txt > out.jsonl
    local rc=$?
    set -e
    echo "$rc"
}

# The good log's run is in out.jsonl with its numbers, and the stream is valid UTF-8
# JSON whatever the bad input held.
good_run_kept() {
    python3 - out.jsonl "$GOOD_IO" <<'PY' || fail "$1: the good run was lost or the output is not valid JSON"
import json, sys
lines = open(sys.argv[1], "rb").read().decode("utf-8").splitlines()  # strict UTF-8
objs = [json.loads(l) for l in lines]
runs = [o for o in objs if "input" not in o and o["source"]["path"] == "good.txt"]
assert len(runs) == 1, len(runs)
job = runs[0]["jobs"][0]
assert job["jobname"] == "randread" and job["read"]["io_bytes"] == int(sys.argv[2]), job["read"]
assert job["read"]["clat_ns"]["percentile"]["99.000000"] == 971000
PY
}

# expect NAME RC MANIFEST-LINES: exit status and the manifest (lib.sh format)
expect() {
    local name=$1 want=$2 rc=$3
    [ "$rc" = "$want" ] || fail "$name: exit $rc, want $want"
    manifest < out.jsonl > got.txt
    expect_manifest got.txt
    good_run_kept "$name"
}

# the first run's first job of input $1 in out.jsonl, as JSON, for value checks
job_of() {
    python3 -c '
import json, sys
for l in open("out.jsonl"):
    o = json.loads(l)
    if "input" not in o and o["source"]["path"] == sys.argv[1]:
        print(json.dumps({"job": o["jobs"][0], "warnings": o["warnings"]})); break
' "$1"
}

# --- empty file, binary garbage (seeded), a missing path ---
: > empty.txt
python3 -c 'import random; r = random.Random(8); open("garbage.bin", "wb").write(bytes(r.randrange(256) for _ in range(65536)))'
rc=$(parse_with_good empty.txt garbage.bin missing.txt)
expect "empty/garbage/missing" 1 "$rc" <<'EXP'
empty.txt|None|no-runs|0|empty file
garbage.bin|None|error|0|binary data: neither text nor a known archive or compressed format
missing.txt|None|error|0|cannot open: No such file or directory
good.txt|None|ok|1|None
EXP

# --- NUL bytes inside a good log: a zero-filled block, a stray one in a word, one
# inside a result line (repaired with a warning); CRLF line ends ---
python3 - <<'PY'
g = open("good.txt", "rb").read()
open("nul-block.txt", "wb").write(b"\0" * 4096 + b"\n" + g + b"\0" * 8192)
open("nul-word.txt", "wb").write(g.replace(b"Starting 1 process", b"Starting 1 \0process"))
open("nul-result.txt", "wb").write(g.replace(b"    clat (usec)", b"    cl\0at (usec)"))
open("crlf.txt", "wb").write(g.replace(b"\n", b"\r\n"))
PY
rc=$(parse_with_good nul-block.txt nul-word.txt nul-result.txt crlf.txt)
expect "NUL/CRLF" 0 "$rc" <<'EXP'
nul-block.txt|None|ok|1|None
nul-word.txt|None|ok|1|None
nul-result.txt|None|ok|1|None
crlf.txt|None|ok|1|None
good.txt|None|ok|1|None
EXP
for f in nul-block.txt nul-word.txt nul-result.txt crlf.txt; do
    job_of "$f" | python3 -c '
import json, sys
j = json.load(sys.stdin)["job"]
assert j["jobname"] == "randread" and j["read"]["io_bytes"] == 89653248, j
assert j["read"]["clat_ns"]["mean"] == 88610, j["read"]["clat_ns"]
' || fail "$f: the run inside was not read right"
done

# --- a 50 MB line without a newline: linear time and bounded memory ---
head -c 50000000 /dev/zero | tr '\0' x > long-x.txt
python3 -c 'import sys; sys.stdout.write("read: IOPS=1, " * (5000000 // 14))' > long-words.txt
/usr/bin/time -f '%e %M' -o time.txt "$FIOSCOPE" parse --jsonl -q long-x.txt long-words.txt good.txt > out.jsonl &&
    fail "long lines: exit 0"
read -r secs kb < <(tail -n 1 time.txt)
echo "50 MB line + 5 MB line of fio words: ${secs}s, max RSS ${kb} KiB"
awk -v s="$secs" 'BEGIN { exit !(s < 120) }' || fail "long lines took ${secs}s"
[ "$kb" -lt 2500000 ] || fail "long lines used ${kb} KiB"
manifest < out.jsonl > got.txt
expect_manifest got.txt <<'EXP'
long-x.txt|None|no-runs|0|None
long-words.txt|None|no-runs|0|None
good.txt|None|ok|1|None
EXP
good_run_kept "long lines"
rm -f long-x.txt long-words.txt

# --- truncations: at every line end and at 200 seeded byte offsets; each is its own
# input; every cut that keeps the whole read: line still yields the run's numbers ---
python3 - <<'PY'
import random
g = open("good.txt", "rb").read()
cuts = [i + 1 for i, c in enumerate(g) if c == 0x0A][:-1]
r = random.Random(200)
cuts += sorted(r.sample(range(1, len(g)), 200))
read_end = g.index(b"(85.5MiB/2001msec)\n") + len(b"(85.5MiB/2001msec)\n")
with open("cuts.list", "w") as lst:
    for k, n in enumerate(cuts):
        name = "cut-%03d-%d.txt" % (k, n)
        open(name, "wb").write(g[:n])
        lst.write("%s %d\n" % (name, int(n >= read_end)))
PY
set +e
"$FIOSCOPE" parse --jsonl -q $(cut -d' ' -f1 cuts.list) > out.jsonl
rc=$?
set -e
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "truncations: exit $rc"
python3 - out.jsonl cuts.list <<'PY' || fail "truncations"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1], "rb").read().decode("utf-8").splitlines()]
inputs = {o["input"]["path"]: o["input"] for o in objs if "input" in o}
runs = {}
for o in objs:
    if "input" not in o:
        runs.setdefault(o["source"]["path"], []).append(o)
cuts = [l.split() for l in open(sys.argv[2])]
assert len(inputs) == len(cuts) == 231, (len(inputs), len(cuts))  # 31 line ends + 200 offsets
for name, whole_read in cuts:
    st = inputs[name]["status"]
    assert st in ("ok", "no-runs"), (name, st)
    if whole_read == "1":
        job = runs[name][0]["jobs"][0]
        assert job["jobname"] == "randread" and job["read"]["io_bytes"] == 89653248, (name, job)
print("truncations: %d inputs, %d with runs" % (len(cuts), len(runs)))
PY

# --- invalid UTF-8 in a job name: the job is still read, its bytes as Windows-1252 ---
python3 - <<'PY'
g = open("good.txt", "rb").read()
open("latin1.txt", "wb").write(g.replace(b"randread: (g", b"rand\xe9\xff\xc3read: (g"))
PY
rc=$(parse_with_good latin1.txt)
expect "invalid UTF-8" 0 "$rc" <<'EXP'
latin1.txt|None|ok|1|None
good.txt|None|ok|1|None
EXP
job_of latin1.txt | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["job"]["jobname"] == "rand\u00e9\u00ff\u00c3read", d["job"]["jobname"]
assert d["job"]["read"]["io_bytes"] == 89653248 and not d["warnings"], d
' || fail "invalid UTF-8 job name"
for fmt in csv md html json; do
    "$FIOSCOPE" table -q --format "$fmt" latin1.txt > "t.$fmt" || fail "table $fmt"
    python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "t.$fmt" ||
        fail "table --format $fmt is not valid UTF-8"
done

# --- a text saved as Windows-1252 ("ANSI"), its indentation in no-break spaces (0xA0,
# as copied from a web page) and a job name in Latin-1: read as the clean text ---
python3 - <<'PY'
g = open("good.txt", "rb").read()
open("ansi.txt", "wb").write(g.replace(b"  ", b"\xa0 ").replace(b"randread: (g", b"r\xe9ad: (g"))
PY
rc=$(parse_with_good ansi.txt)
expect "Windows-1252 text" 0 "$rc" <<'EXP'
ansi.txt|None|ok|1|None
good.txt|None|ok|1|None
EXP
job_of ansi.txt | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["job"]["jobname"] == "r\u00e9ad", d["job"]["jobname"]
r = d["job"]["read"]
assert r["io_bytes"] == 89653248 and r["clat_ns"]["percentile"]["99.000000"] > 0 and not d["warnings"], d
' || fail "Windows-1252 text"

# --- UTF-16 (PowerShell's `>`): with a byte order mark or without (a slice of such a
# file, from an even byte or an odd one; a program's own file), it is read; NULs that
# are no UTF-16 make binary data ---
python3 - <<'PY'
g = open("good.txt", encoding="utf-8").read().replace("randread: (g", "rand\u00e9\u8bfb\U0001f600read: (g")
open("utf16le.txt", "wb").write(g.replace("\n", "\r\n").encode("utf-16"))  # BOM FF FE
open("utf16be.txt", "wb").write(b"\xfe\xff" + g.encode("utf-16-be"))
open("utf16-nobom.txt", "wb").write(g.replace("\n", "\r\n").encode("utf-16-le"))
open("utf16be-nobom.txt", "wb").write(g.encode("utf-16-be"))
# a slice from an odd byte reads as big endian: right but for chars above U+00FF
open("utf16-odd.txt", "wb").write(("x" + g).encode("utf-16-le")[1:])
open("nuls.txt", "wb").write(bytes(range(1, 9)) * 40 + b"\0" * 64)
PY
rc=$(parse_with_good utf16le.txt utf16be.txt utf16-nobom.txt utf16be-nobom.txt utf16-odd.txt nuls.txt)
expect "UTF-16" 1 "$rc" <<'EXP'
utf16le.txt|None|ok|1|None
utf16be.txt|None|ok|1|None
utf16-nobom.txt|None|ok|1|None
utf16be-nobom.txt|None|ok|1|None
utf16-odd.txt|None|ok|1|None
nuls.txt|None|error|0|binary data: neither text nor a known archive or compressed format
good.txt|None|ok|1|None
EXP
for f in utf16le.txt utf16be.txt utf16-nobom.txt utf16be-nobom.txt; do
    job_of "$f" | python3 -c '
import json, sys
j = json.load(sys.stdin)["job"]
assert j["jobname"] == "rand\u00e9\u8bfb\U0001f600read" and j["read"]["io_bytes"] == 89653248, j["jobname"]
assert j["read"]["clat_ns"]["percentile"]["99.000000"] == 971000
' || fail "$f: not read as UTF-16"
done
job_of utf16-odd.txt | python3 -c '
import json, sys
j = json.load(sys.stdin)["job"]
assert j["read"]["io_bytes"] == 89653248 and j["read"]["clat_ns"]["percentile"]["99.000000"] == 971000
' || fail "utf16-odd.txt: not read as UTF-16"

# --- numbers beyond 64 bits, percentiles out of order, absurd units, a 10,000
# character job name: warnings, never a crash; the other numbers stay ---
python3 - <<'PY'
g = open("good.txt", "rb").read()
open("overflow.txt", "wb").write(g.replace(b"IOPS=10.9k", b"IOPS=99999999999999999999999k")
    .replace(b"ios=19892/39", b"ios=18446744073709551616/1"))
open("pct-order.txt", "wb").write(g.replace(b" 1.00th=[   35]", b" 1.00th=[ 9935]")
    .replace(b"99.99th=[16188]", b"99.99th=[    1]").replace(b"  5.00th=[   38]", b" 995.00th=[   38]"))
open("units.txt", "wb").write(g.replace(b"BW=42.8MiB/s", b"BW=12XiB/s")
    .replace(b"    clat (usec)", b"    clat (fortnight)"))
open("longname.txt", "wb").write(g.replace(b"randread: (g", b"r" * 10000 + b": (g"))
PY
rc=$(parse_with_good overflow.txt pct-order.txt units.txt longname.txt)
expect "overflow/percentiles/units/long name" 0 "$rc" <<'EXP'
overflow.txt|None|ok|1|None
pct-order.txt|None|ok|1|None
units.txt|None|ok|1|None
longname.txt|None|ok|1|None
good.txt|None|ok|1|None
EXP
job_of overflow.txt | python3 -c '
import json, sys
d = json.load(sys.stdin); r = d["job"]["read"]
assert "iops" not in r and r["io_bytes"] == 89653248 and r["total_ios"] == 21899, r
msgs = [w["message"] for w in d["warnings"]]
assert "cannot read the value '"'"'99999999999999999999999k'"'"'" in msgs, msgs
' || fail "overflowing numbers"
job_of pct-order.txt | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = d["job"]["read"]["clat_ns"]["percentile"]
assert p["1.000000"] == 9935000 and p["99.990000"] == 1000 and p["50.000000"] == 47000, p
assert "995.000000" not in p and "5.000000" not in p and len(p) == 16, p
assert d["warnings"] and "995.00th" in d["warnings"][0]["message"], d["warnings"]
' || fail "percentiles out of order are kept as printed, over 100 dropped"
job_of units.txt | python3 -c '
import json, sys
d = json.load(sys.stdin); r = d["job"]["read"]
assert "bw_bytes" not in r and "mean" not in r["clat_ns"] and r["clat_ns"]["percentile"]["99.000000"] == 971000, r
assert r["total_ios"] == 21899 and r["lat_ns"]["mean"] == 88770, r
assert any("12XiB/s" in w["message"] for w in d["warnings"]), d["warnings"]
' || fail "absurd units"
job_of longname.txt | python3 -c '
import json, sys
j = json.load(sys.stdin)["job"]
assert j["jobname"] == "r" * 10000 and j["read"]["io_bytes"] == 89653248
' || fail "10,000 character job name"

# --- 100,000 job blocks in one file: linear time ---
python3 - <<'PY'
g = open("good.txt").read().split("\n")
block = "\n".join(g[5:9]) + "\n"  # job line, read:, clat, lat
with open("jobs.txt", "w") as f:
    f.write("fio-3.33\n")
    for i in range(100000):
        f.write(block.replace("randread:", "j%d:" % i, 1))
PY
/usr/bin/time -f '%e %M' -o time.txt "$FIOSCOPE" parse --jsonl -q jobs.txt > out.jsonl || fail "100k jobs: exit $?"
read -r secs kb < <(tail -n 1 time.txt)
echo "100,000 job blocks (25 MB): ${secs}s, max RSS ${kb} KiB"
awk -v s="$secs" 'BEGIN { exit !(s < 180) }' || fail "100k jobs took ${secs}s"
python3 -c '
import json
objs = [json.loads(l) for l in open("out.jsonl")]
jobs = [j for o in objs if "input" not in o for j in o["jobs"]]
assert len(jobs) == 100000 and jobs[-1]["jobname"] == "j99999", len(jobs)
assert all(j["read"]["io_bytes"] == 89653248 for j in jobs)
' || fail "100k jobs: wrong jobs"
rm -f jobs.txt

# --- the JSON and terse readers through the CLI: 100k-deep nesting, numbers beyond
# double, wrong types, 10,000 terse fields: no runs or what is sane, never a crash ---
R=$FSC_SOURCE_DIR/tests/fuzz/regress
cp "$R/fuzz_json/nested-100k.json" nested.json
cp "$R/fuzz_json/huge-numbers.json" huge.json
cp "$R/fuzz_terse/fields-10000.terse" wide.terse
rc=$(parse_with_good nested.json huge.json wide.terse)
expect "JSON/terse" 1 "$rc" <<'EXP'
nested.json|None|no-runs|0|line 1: a fio JSON document that cannot be read (it nests too deep)
huge.json|None|ok|1|None
wide.terse|None|no-runs|0|None
good.txt|None|ok|1|None
EXP
job_of huge.json | python3 -c '
import json, sys
r = json.load(sys.stdin)["job"]["read"]
assert "io_bytes" not in r and "iops" not in r and r["bw_bytes"] == 1e308, r
' || fail "huge JSON numbers"

# --- usage errors are 2, before any input is read ---
set +e
"$FIOSCOPE" parse --no-such-option good.txt > /dev/null 2>&1; rc=$?
set -e
[ "$rc" = 2 ] || fail "usage: exit $rc, want 2"
echo ok
