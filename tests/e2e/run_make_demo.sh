#!/usr/bin/env bash
# `make demo` on a fresh clone, end to end: set-up, build, report on samples/.
# Runs in the plain build only (the ASan suite would build the same thing again).
set -euo pipefail
case "${FSC_BUILD_DIR:-}" in *asan*) echo "make demo: run by the plain suite"; exit 0 ;; esac
src=${FSC_SOURCE_DIR:?}
[ -e "$src/.git" ] || { echo "make demo: $src is not a git checkout"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q "$src" "$tmp/fioscope"
out=$(make -C "$tmp/fioscope" demo JOBS=2 2>&1) || { echo "$out" | tail -30; exit 1; }
echo "$out" | grep -q "report written to demo-report/index.html" || { echo "$out" | tail -5; exit 1; }
r="$tmp/fioscope/demo-report"
for f in index.html report.md report.xlsx charts/iops.png charts/clat-percentiles.png; do
    test -s "$r/$f" || { echo "FAIL: $f missing"; exit 1; }
done
# the page is self-contained: no external fetches
if grep -Eq '(src|href)="https?://' "$r/index.html"; then echo "FAIL: network fetch in the page"; exit 1; fi
# the sample runs are in it: the 2.1.10 job blocks and the 3.33 JSON jobs
grep -q "randwrite" "$r/report.md" && grep -q "nullio" "$r/report.md"
echo "1 passed, 0 failed"
