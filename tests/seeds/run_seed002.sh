#!/usr/bin/env bash
# seeds/002 is a blog post with 31 fio runs under numbered headings; its section 7 sums
# them up in tables. `fioscope table` over the post must give those numbers (IOPS, BW,
# mean latency — the post takes the read latency for mixed jobs — and usr+sys CPU),
# each row labelled by its headings.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
post=${FSC_CORPUS:?}/../seeds/002_6f6d330e65d35f74.txt
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$FIOSCOPE" table --format tsv --no-split \
    --metrics label,jobname,jobs,iops,bw,read.lat_ns.mean,write.lat_ns.mean,cpu "$post" >"$out"
python3 - "$out" "$here/seed002-section7.tsv" <<'PY'
import re, sys

rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
head, rows = rows[0], rows[1:]
want = [l.rstrip("\n").split("\t") for l in open(sys.argv[2], encoding="utf-8") if not l.startswith("#")]

TEST = {"4k - 随机写": "4k 随机写", "4k - 随机读": "4k 随机读", "4k - 随机读写": "4k 随机读写",
        "4M - 顺序写": "4M 顺序写", "4M - 顺序读": "4M 顺序读"}
SYSTEM = {"单盘": "磁盘基准测试"}

def num(s):
    m = re.match(r"^([\d.]+)\s*(k|M|G|Ki|Mi|Gi)?", s)
    v = float(m.group(1))
    mult = {"k": 1e3, "M": 1e6, "G": 1e9, "Ki": 1024, "Mi": 1024**2, "Gi": 1024**3}.get(m.group(2), 1)
    return v * mult

def close(got, txt, rel):
    w = num(txt)
    if "MiB/s" in txt: w = float(txt.split("MiB")[0]) * 1024**2
    if "GiB/s" in txt: w = float(txt.split("GiB")[0]) * 1024**3
    return abs(got - w) <= rel * w + 1e-9

errors, checked = [], 0
for test, system, jobs, iops, bw, lat, cpu in want:
    heading = TEST[test]
    sysname = SYSTEM.get(system, system)
    cand = []
    for r in rows:
        parts = r[0].split(" \u203a ")
        if heading in parts and any(re.fullmatch(re.escape(sysname) + r"(?!\d).*", p) or p == sysname
                                    for p in parts) and r[2] == jobs:
            cand.append(r)
    if len(cand) != 1:
        errors.append(f"{system} / {test}: {len(cand)} rows labelled with both headings")
        continue
    r = dict(zip(head, cand[0]))
    checks = [("iops", float(r["iops"]), iops, 0.006), ("bw", float(r["bw"]), bw, 0.006)]
    latv = r["read.lat_ns.mean"] or r["write.lat_ns.mean"]
    checks.append(("lat", float(latv) / 1000.0, lat.replace("us", ""), 0.0001))
    checks.append(("cpu", float(r["cpu"]), cpu.rstrip("%"), 0.0001))
    for name, got, txt, rel in checks:
        checked += 1
        if not close(got, txt, rel):
            errors.append(f"{system} / {test}: {name} {got} != post's {txt} (label {r['label']!r})")
for e in errors:
    print("FAIL " + e)
print(f"{checked - len(errors)} passed, {len(errors)} failed")
sys.exit(1 if errors else 0)
PY
