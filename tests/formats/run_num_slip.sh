#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fio's rounding slip (src/parse/numslip.h): fio 2.17 to 3.25 printed a value whose
# fraction rounds up to a whole unit without the carry ("50.0MiB/s" for 50.97). The
# value beside it in the other units tells (for IOPS, the issued count over the
# runtime; for a job's bytes, its bandwidth): read as fio meant it, with a warning, on
# real documents of fio 2.21, 3.13, a blog post and a mail; by the fast path and the
# patterns alike; and left as printed by fio 3.26 and later, which carries.
set -u
: "${FIOSCOPE:?}" "${FSC_CORPUS:?}" "${FSC_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
seeds=$FSC_CORPUS/../seeds
check() { # file, JSON path of a run's value (python), the value fio meant, the warning's "fio printed ..."
    "$FIOSCOPE" parse --jsonl -q --fail-on=none "$1" > "$tmp/out.jsonl"
    FIOSCOPE_NO_FASTPATH=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none "$1" > "$tmp/grammar.jsonl"
    cmp -s "$tmp/out.jsonl" "$tmp/grammar.jsonl" || fail "$1: the fast path and the patterns differ"
    python3 - "$tmp/out.jsonl" "$2" "$3" "$4" <<'PY' || fail "$1: $2 is not $3, or no warning '$4'"
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"id":')]
got = [eval("r" + sys.argv[2], {"r": r}) for r in runs if any(w["message"].startswith(sys.argv[4]) for w in r["warnings"])]
assert got and all(g == float(sys.argv[3]) for g in got), got
PY
}
check "$FSC_CORPUS/fio-2.21/c_randrw70_libaio_4jobs_group.txt" '["jobs"][0]["write"]["bw_bytes"]' 53477376 \
    "fio printed 50.0MiB/s for 51.0MiB/s (53.4MB/s beside it)"
check "$FSC_CORPUS/fio-2.21/c_randrw70_libaio_4jobs_group.txt" '["groups"][0]["write"]["bw_max_bytes"]' 53477376 \
    "fio printed 50.0MiB/s for 51.0MiB/s"
check "$FSC_CORPUS/fio-3.13/j_percentile_list.txt" '["groups"][0]["read"]["io_bytes"]' 103809024 \
    "fio printed 98.0MiB for 99.0MiB (104MB beside it)"
check "$seeds/002_6f6d330e65d35f74.txt" '["jobs"][0]["write"]["bw_bytes"]' 80740352 \
    "fio printed 76.0MiB/s for 77.0MiB/s (80.7MB/s beside it)"
check "$FSC_CORPUS/wild/linux-mailinglist-archives__linux-block.vger.kernel.org.0/m__c947fa867fc7.eml" \
    '["jobs"][0]["read"]["bw_bytes"]' 17825792 "fio printed 16.0MiB/s for 17.0MiB/s"
# IOPS weighed with the issued count over the runtime, a job's bytes with its bandwidth
check "$FSC_CORPUS/fio-3.0/q_randwrite_fsync.txt" '["jobs"][0]["write"]["iops"]' 16000 \
    "fio printed IOPS=15.0k for 16.0k (31944 I/Os in 2001 ms"
check "$seeds/002_6f6d330e65d35f74.txt" '["jobs"][0]["read"]["iops"]' 46000 "fio printed IOPS=45.0k for 46.0k"
check "$FSC_CORPUS/wild/linux-mailinglist-archives__io-uring.vger.kernel.org.0/m__63fb95950f4f.eml" \
    '["jobs"][0]["write"]["io_bytes"]' 60129542144 "fio printed 55.0GiB for 56.0GiB (601MB/s over 100001ms"
# the same line under fio 3.26's banner is read as printed: that fio carries
sed 's/^fio-2\.21$/fio-3.26/' "$FSC_CORPUS/fio-2.21/c_randrw70_libaio_4jobs_group.txt" > "$tmp/carried.txt"
grep -qx 'fio-3.26' "$tmp/carried.txt" || fail "no banner to change"
"$FIOSCOPE" parse --jsonl -q --fail-on=none "$tmp/carried.txt" | grep -q 'rounding slip' && fail "fio 3.26 read as slipped"
echo "ok: fio's rounding slip read as fio meant it (bandwidth, bytes, IOPS), on 7 real documents"
