#!/usr/bin/env bash
# seeds/002 compares six systems (a single disk and RAID 0/1/5/6/10, one outline heading
# each) over five tests; its section 7 has a table per test. `table --pivot` over the
# post must give those tables transposed: one column per system, named by its heading,
# in the post's order, and every value equal to the post's (IOPS, BW, the read latency
# the post quotes for mixed jobs, usr+sys CPU). `--where 'system~RAID 5$'` keeps RAID 5.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
post=${FSC_CORPUS:?}/../seeds/002_6f6d330e65d35f74.txt
out=$(mktemp)
trap 'rm -f "$out" "$out.5"' EXIT
"$FIOSCOPE" table --pivot -q --format tsv \
    -m iops,bw,read.lat_ns.mean,write.lat_ns.mean,cpu "$post" >"$out"
"$FIOSCOPE" table --pivot -q --format tsv -m iops --where 'system~RAID 5$' "$post" >"$out.5"
/usr/bin/python3 - "$out" "$out.5" "$here/seed002-section7.tsv" <<'PY'
import sys

rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
head, rows = rows[0], rows[1:]
want = [l.rstrip("\n").split("\t") for l in open(sys.argv[3], encoding="utf-8") if not l.startswith("#")]
errors, checked = [], 0

SYSTEMS = ["磁盘基准测试", "RAID 0", "RAID 1", "RAID 5", "RAID 6", "RAID 10"]
if head[:6] != ["metric", "rw", "bs", "iodepth", "numjobs", "dir"] or head[6:] != SYSTEMS:
    errors.append(f"header {head!r}: want metric, the workload key, dir, then {SYSTEMS}")
# test of the post → (rw, bs, iodepth, numjobs, dir) of the pivot row
TESTS = {"4k - 随机写": ("randwrite", "4k", "32", "8", "write"),
         "4k - 随机读": ("randread", "4k", "32", "8", "read"),
         "4k - 随机读写": ("randrw", "4k", "1", "8", "total"),
         "4M - 顺序写": ("write", "4m", "8", "1", "write"),
         "4M - 顺序读": ("read", "4m", "8", "1", "read")}
SYSTEM = {"单盘": "磁盘基准测试"}

def num(s):
    for unit, f in (("GiB/s", 1024**3), ("MiB/s", 1024**2), ("us", 1), ("%", 1)):
        if s.endswith(unit):
            return float(s[: -len(unit)]) * f
    if s.endswith("k"):
        return float(s[:-1]) * 1000
    return float(s)

def cell(metric, key, system):
    col = head.index(system)
    for r in rows:
        if r[0] == metric and tuple(r[1:6]) == key:
            return float(r[col]) if r[col] else None
    return None

for test, system, jobs, iops, bw, lat, cpu in want:
    key, sysname = TESTS[test], SYSTEM.get(system, system)
    if key[3] != jobs:
        errors.append(f"{test}: numjobs {key[3]} != post's {jobs}")
    latm = "write.lat_ns.mean" if key[4] == "write" else "read.lat_ns.mean"
    for metric, txt, scale, rel in (("iops", iops, 1, 0.006), ("bw", bw, 1, 0.006),
                                    (latm, lat, 1000, 0.0001), ("cpu", cpu, 1, 0.0001)):
        checked += 1
        got = cell(metric, key, sysname)
        w = num(txt) * scale
        if got is None or abs(got - w) > rel * w + 1e-9:
            errors.append(f"{sysname} / {test}: {metric} {got} != post's {txt}")

five = [l.rstrip("\n").split("\t") for l in open(sys.argv[2], encoding="utf-8")]
checked += 1
if five[0][5:] != ["RAID 5"] or len(five) != 8:
    errors.append(f"--where 'system~RAID 5$': header {five[0]!r}, {len(five) - 1} rows")
for e in errors:
    print("FAIL " + e)
print(f"{checked - len(errors)} passed, {len(errors)} failed")
sys.exit(1 if errors else 0)
PY
