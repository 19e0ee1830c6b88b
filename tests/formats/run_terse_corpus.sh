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

# file, expected fio_version (None for v2), jobs, disks
check_terse() {
    "$FIOSCOPE" parse "$1" >"$tmp/out.json" 2>/dev/null
    python3 - "$tmp/out.json" "$1" "$2" "$3" "$4" <<'PY' || fail=1
import json, sys
out, name, version, jobs, disks = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
runs = [r for r in json.load(open(out))["runs"] if r["source"]["format"] == "terse"]
ok = (len(runs) == 1 and str(runs[0]["source"]["fio_version"]) == version and len(runs[0]["jobs"]) == jobs
      and len(runs[0]["disk_util"]) == disks and not runs[0]["warnings"]
      and all(j["read"]["iops"] > 0 or j["write"]["iops"] > 0 for j in runs[0]["jobs"]))
if not ok:
    print(f"FAIL: {name}: want {version} jobs={jobs} disks={disks}, got",
          [(r["source"]["fio_version"], len(r["jobs"]), len(r["disk_util"]), r["warnings"]) for r in runs])
    sys.exit(1)
PY
}

n=0
for dir in fio-2.0.15 fio-2.1.10 fio-2.15 fio-2.21 fio-3.0 fio-3.13 fio-3.33; do
    disks=1
    [ "$dir" = fio-2.1.10 ] && disks=0 # 2.1.4-2.1.14 left disk util out of local terse
    for v in 3 4 5; do
        [ -f "$dir/g_terse_v$v.terse" ] && check_terse "$dir/g_terse_v$v.terse" "${dir}" 1 $disks && n=$((n + 1))
    done
    check_terse "$dir/g_terse_v2.terse" None 1 0 && n=$((n + 1))
    check_terse "$dir/g_terse_multijob.terse" "$dir" 4 $disks && n=$((n + 1))
    check_terse "$dir/g_terse_group.terse" "$dir" 1 $disks && n=$((n + 1))
    if [ -f "$dir/g_normal_terse_json.txt" ]; then
        "$FIOSCOPE" parse "$dir/g_normal_terse_json.txt" >"$tmp/both.json" 2>/dev/null
        python3 "$here/terse_json_agree.py" "$tmp/both.json" || { echo "FAIL: $dir/g_normal_terse_json.txt"; fail=1; }
    fi
done
# wild: 12 records of fio 2.1.2; records after a progress line, the first glued to it
check_terse wild/jtulak__fio-parser/fio-test.out fio-2.1.2 12 1
check_terse wild/hikalium__bench/64g3_2419X91296JF.txt fio-3.28 8 1
"$FIOSCOPE" parse wild/hikalium__bench/result_2408X01456JF.txt >"$tmp/glued.json" 2>/dev/null
python3 -c '
import json, sys
r = [r for r in json.load(open(sys.argv[1]))["runs"] if r["source"]["format"] == "terse"]
assert len(r) == 1 and r[0]["source"]["first_line"] == 14 and len(r[0]["jobs"]) == 8, r
assert r[0]["jobs"][0]["jobname"] == "Seq1M-Read-Q8" and r[0]["jobs"][0]["read"]["bw"] == 87098
' "$tmp/glued.json" || { echo "FAIL: glued terse record"; fail=1; }
echo "$n terse files checked"
exit $fail
