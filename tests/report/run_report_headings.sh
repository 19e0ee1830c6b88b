#!/usr/bin/env bash
# A post with one outline section per system and the same tests under each (seeds/002:
# disk, RAID 0, 1, 5, 6, 10) gets comparison charts, like the post's own summary
# tables; documents without such headings do not.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$FIOSCOPE" report -q -o "$out/post" "${FSC_CORPUS:?}/../seeds/002_6f6d330e65d35f74.txt" >/dev/null
for f in compare-iops compare-bandwidth compare-latency; do
    test -s "$out/post/charts/$f.png" || { echo "FAIL: $f.png missing"; exit 1; }
done
# the page shows them, with the systems as the legend (in the embedded run data)
grep -q 'compare-iops.png\|IOPS by heading' "$out/post/index.html" || { echo "FAIL: page lacks the chart"; exit 1; }
"$FIOSCOPE" report -q -o "$out/plain" "$FSC_CORPUS/fio-3.33/b_randwrite_4jobs_nogroup.txt" >/dev/null
if ls "$out/plain/charts" | grep -q compare-; then echo "FAIL: comparison chart without headings"; exit 1; fi
echo "1 passed, 0 failed"
