#!/bin/bash
# SPDX-License-Identifier: MIT
# libaio and io_uring with O_DIRECT at iodepth 8. Sandboxes may forbid them (EPERM,
# ENOSYS): then the run must fail with the clear message that names the engine.
set -uo pipefail
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}"
dir=$(mktemp -d /var/tmp/fsc_async.XXXXXX)
trap 'rm -rf "$dir"' EXIT
for eng in libaio io_uring; do
    if ! "$FIOSCOPE" run --help >/dev/null; then exit 1; fi
    "$FIOSCOPE" run --output-format=json --name=a --ioengine=$eng --iodepth=8 --direct=1 --rw=randread \
        --bs=4k --size=8m --directory="$dir" >"$dir/out" 2>"$dir/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        if grep -q "ioengine=$eng: .*failed: .*(the kernel or sandbox does not allow" "$dir/err" ||
           grep -q "ioengine=$eng is not available in this build" "$dir/err"; then
            echo "ok: $eng unavailable here, clear error: $(cat "$dir/err")"
            continue
        fi
        echo "FAIL: $eng exit $rc: $(cat "$dir/err")"
        exit 1
    fi
    python3 - "$dir/out" "$eng" "$FSC_SOURCE_DIR/tests/engine" <<'PY' || exit 1
import json, sys
sys.path.insert(0, sys.argv[3])
from split_output import contract
doc = json.load(open(sys.argv[1]))
assert doc["fio version"] == "fioscope-engine-0.1.0"
job = contract(doc)["jobs"][0]
r = job["read"]
assert r["total_ios"] == 2048, r["total_ios"]            # 8 MiB / 4 KiB, each block once on average
assert r["slat_ns"]["N"] == 2048 and r["clat_ns"]["N"] == 2048 and r["lat_ns"]["N"] == 2048
assert abs(r["lat_ns"]["mean"] - (r["slat_ns"]["mean"] + r["clat_ns"]["mean"])) < 0.01 * r["lat_ns"]["mean"] + 1
assert job["iodepth_level"]["8"] > 0 and job["iodepth_level"]["4"] + job["iodepth_level"]["8"] > 50, job["iodepth_level"]
assert job["latency_depth"] == 8
assert job["job options"]["ioengine"] == sys.argv[2]
print("ok:", sys.argv[2], r["iops"], "IOPS")
PY
    [ -z "$(ls "$dir" | grep -v '^out$\|^err$')" ] || { echo "data file left behind"; exit 1; }
done
