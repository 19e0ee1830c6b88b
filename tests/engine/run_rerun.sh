#!/bin/bash
# SPDX-License-Identifier: MIT
# `fioscope rerun`: seeds/002's RAID 0 jobs scaled down (command lines), a document
# with job files of our own making ([global] + [job], a fio 2.x style file with a
# device), --dry-run, --directory, and usage errors.
set -uo pipefail
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}"
seed=$(ls "$FSC_SOURCE_DIR"/../shared/seeds/002_*.txt 2>/dev/null | head -1)
doc="$FSC_SOURCE_DIR/tests/engine/docs/own_jobfiles.md"
dir=$(mktemp -d /var/tmp/fsc_rerun.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1

# libaio may be refused by a sandbox: then the seed's jobs run with psync
engine=()
"$FIOSCOPE" run --name=probe --ioengine=libaio --size=64k --directory="$dir" >/dev/null 2>&1 || engine=(--ioengine=psync)

if [ -n "$seed" ]; then
    "$FIOSCOPE" rerun "$seed" --where 'system~RAID 0$' --size=16m --runtime=1 --dry-run >"$dir/dry" 2>"$dir/err" ||
        fail "dry run: $(cat "$dir/err")"
    [ "$(grep -c '^# .*: RAID 0 › ' "$dir/dry")" = 5 ] || fail "dry run: want the 5 RAID 0 runs: $(grep '^#' "$dir/dry")"
    grep -q '^\[4k_randwrite\]$' "$dir/dry" || fail "dry run: no [4k_randwrite] job"
    grep -q '^size=16m$' "$dir/dry" && grep -q '^runtime=1$' "$dir/dry" || fail "dry run: overrides not applied"
    ! grep -q '/data1\|/dev/\|size=20G' "$dir/dry" || fail "dry run: the document's paths or size remain: $(grep '/data1\|/dev/\|20G' "$dir/dry" | head -3)"
    echo "ok: seeds/002 dry run"

    "$FIOSCOPE" rerun "$seed" --where 'system~RAID 0$' --size=16m --runtime=1 "${engine[@]}" -f json \
        -m iops,lat >"$dir/cmp.json" 2>"$dir/err" || fail "seeds/002 rerun: $(cat "$dir/err")"
    python3 - "$dir/cmp.json" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["sides"] == ["document", "local"], doc["sides"]
rows = {r["label"]: r for r in doc["metrics"][0]["rows"]}
# the article's own numbers are the base side; every job ran here too
want = {"RAID 0 › 4k 随机写 › 4k_randwrite": 87.9e3, "RAID 0 › 4k 随机读 › 4k_randread": 1.01e6,
        "RAID 0 › 4M 顺序写 › 4m_seq_write": 1.2e3, "RAID 0 › 4M 顺序读 › 4m_seq_read": 3.38e3}
for label, iops in want.items():
    r = rows[label]
    assert abs(r["base"]["median"] - iops) <= 0.01 * iops, (label, r["base"])
    assert r["new"]["median"] > 0, (label, r["new"])
assert len(rows) == 7, sorted(rows)     # 5 jobs, the mixed one as read, write and total
print("ok: seeds/002 RAID 0 re-run:", ", ".join("%s %.0f" % (k.split(" › ")[-1], v["new"]["median"]) for k, v in rows.items()))
PY
    [ -z "$(ls "$dir" | grep -v '^dry$\|^err$\|^cmp.json$')" ] || fail "files left behind: $(ls "$dir")"
else
    echo "skip: no seeds/002"
fi

# a document with job files of our own making
"$FIOSCOPE" rerun "$doc" --runtime=300ms --dry-run >"$dir/dry" 2>"$dir/err" || fail "own doc dry run: $(cat "$dir/err")"
grep -q '^\[rr\]$' "$dir/dry" && grep -q '^\[seqwrite\]$' "$dir/dry" || fail "own doc: jobs missing: $(cat "$dir/dry")"
grep -q '^filename=seqwrite.dev-sdb$' "$dir/dry" || fail "own doc: the device was not replaced by a file"
grep -q '^ioengine=psync$' "$dir/dry" && grep -q '^numjobs=2$' "$dir/dry" || fail "own doc: [global] or job options lost"
mkdir "$dir/data"
"$FIOSCOPE" rerun "$doc" --directory="$dir/data" --runtime=300ms "${engine[@]}" -f json -m iops \
    >"$dir/own.json" 2>"$dir/err" || fail "own doc rerun: $(cat "$dir/err")"
python3 - "$dir/own.json" <<'PY' || exit 1
import json, sys
rows = {r["label"]: r for r in json.load(open(sys.argv[1]))["metrics"][0]["rows"]}
assert rows["Random reads › Result › rr"]["base"]["median"] == 9975, rows
sw = rows["Disk tests on my box › Sequential writes › seqwrite"]
assert abs(sw["base"]["median"] - 2432) < 25 and sw["new"]["median"] > 0, sw
print("ok: own job files re-run:", {k.split(" › ")[-1]: round(v["new"]["median"]) for k, v in rows.items()})
PY
[ -d "$dir/data" ] && [ -z "$(ls "$dir/data")" ] || fail "--directory: data files left or folder removed: $(ls "$dir/data")"

# usage errors
"$FIOSCOPE" rerun "$doc" --runtme=1 2>"$dir/err" >/dev/null
[ $? -eq 2 ] && grep -q "did you mean 'runtime'" "$dir/err" || fail "unknown override: $(cat "$dir/err")"
"$FIOSCOPE" rerun "$doc" --directory="$dir/none" 2>"$dir/err" >/dev/null
[ $? -eq 2 ] && grep -q "is not a folder" "$dir/err" || fail "missing folder: $(cat "$dir/err")"
echo "no run here" >"$dir/empty.txt"
"$FIOSCOPE" rerun "$dir/empty.txt" 2>"$dir/err" >/dev/null
[ $? -eq 1 ] || fail "a document without runs: exit $?"
echo "ok: usage errors"
