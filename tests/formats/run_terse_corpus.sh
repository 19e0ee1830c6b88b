#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Terse v2..v5 of every corpus version through `fioscope parse`: one job per record,
# no warnings, and (g_normal_terse_json.txt) the terse and JSON runs of one fio run
# agree field by field within terse's printed precision.
set -u
corpus=${FSC_CORPUS:?}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$corpus" || exit 1

expect=() # parse output, name, fio_version (None for v2), jobs, disks
n=0
parse() { # file → $out
    n=$((n + 1))
    out="$tmp/$n.json"
    "$FIOSCOPE" parse --each-format "$1" >"$out" 2>/dev/null || { echo "FAIL: fioscope parse $1"; fail=1; }
}
want() { parse "$1" && expect+=("$out" "$1" "$2" "$3" "$4"); }
both=()
for dir in fio-2.0.15 fio-2.1.10 fio-2.15 fio-2.21 fio-3.0 fio-3.13 fio-3.33; do
    disks=1
    [ "$dir" = fio-2.1.10 ] && disks=0 # 2.1.4-2.1.14 left disk util out of local terse
    for v in 3 4 5; do
        [ -f "$dir/g_terse_v$v.terse" ] && want "$dir/g_terse_v$v.terse" "$dir" 1 $disks
    done
    want "$dir/g_terse_v2.terse" None 1 0
    want "$dir/g_terse_multijob.terse" "$dir" 4 $disks
    want "$dir/g_terse_group.terse" "$dir" 1 $disks
    if [ -f "$dir/g_normal_terse_json.txt" ]; then
        parse "$dir/g_normal_terse_json.txt" && both+=("$out")
    fi
done
# wild: 12 records of fio 2.1.2; records after a progress line, the first glued to it
want wild/jtulak__fio-parser/fio-test.out fio-2.1.2 12 1
want wild/hikalium__bench/64g3_2419X91296JF.txt fio-3.28 8 1
parse wild/hikalium__bench/result_2408X01456JF.txt
glued=$out

python3 - "$glued" "${expect[@]}" <<'PY' || fail=1
import json, sys
def terse_runs(path):
    return [r for r in json.load(open(path))["runs"] if r["source"]["format"] == "terse"]
bad = 0
args = sys.argv[2:]
for out, name, version, jobs, disks in zip(*[iter(args)] * 5):
    runs = terse_runs(out)
    ok = (len(runs) == 1 and str(runs[0]["source"]["fio_version"]) == version
          and len(runs[0]["jobs"]) == int(jobs) and len(runs[0]["disk_util"]) == int(disks)
          and not runs[0]["warnings"]
          and all(j["read"]["iops"] > 0 or j["write"]["iops"] > 0 for j in runs[0]["jobs"]))
    if not ok:
        bad += 1
        print(f"FAIL: {name}: want {version} jobs={jobs} disks={disks}, got",
              [(r["source"]["fio_version"], len(r["jobs"]), len(r["disk_util"]), r["warnings"]) for r in runs])
r = terse_runs(sys.argv[1])
if not (len(r) == 1 and r[0]["source"]["first_line"] == 14 and len(r[0]["jobs"]) == 8
        and r[0]["jobs"][0]["jobname"] == "Seq1M-Read-Q8" and r[0]["jobs"][0]["read"]["bw"] == 87098):
    bad += 1
    print("FAIL: glued terse record", [(x["source"], len(x["jobs"])) for x in r])
print(f"{len(args) // 5} terse files checked")
sys.exit(1 if bad else 0)
PY
python3 "$here/terse_json_agree.py" "${both[@]}" || fail=1
exit $fail
