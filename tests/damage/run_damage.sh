#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End to end: every damaged copy of a run must parse to the same jobs, groups and
# disk stats as fio's undamaged normal text of that run (corpus/damaged/*, and the
# fixtures of tests/damage/fixtures made by mkfixtures.py).
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fio's normal text of an oracle file: the lines around its JSON object
undamaged() {
    awk 'BEGIN{z=0} z==0&&/^\{/{z=1;next} z==1&&/^\}$/{z=2;next} z!=1' \
        "$FSC_CORPUS/fio-3.33-oracle/$1.normal+json.txt" > "$tmp/$1.txt"
}

# the numbers of the runs in a document, without where they were found
numbers() {
    "$FIOSCOPE" parse "$1" 2>/dev/null |
        jq -S '[.runs[] | {jobs, groups, disk_util}]'
}

names="fsync-slow grouped-3j libaio-mixed-2j null-fast pctlist psync-randread two-groups uring-seq"
kinds="crlf fenced gutter html_escaped mail_quote progress_junk strip_indent"
fail=0 checked=0
for n in $names; do
    undamaged "$n"
    numbers "$tmp/$n.txt" > "$tmp/$n.want.json"
    if [ "$(jq 'map(.jobs | length) | add // 0' "$tmp/$n.want.json")" = 0 ]; then
        echo "SKIP: $n: the normal-text parser finds no jobs yet"
        continue
    fi
    for k in $kinds; do
        numbers "$FSC_CORPUS/damaged/$n.$k.txt" > "$tmp/got.json"
        checked=$((checked + 1))
        if ! cmp -s "$tmp/$n.want.json" "$tmp/got.json"; then
            echo "FAIL: damaged/$n.$k.txt parses differently from the undamaged text"
            diff "$tmp/$n.want.json" "$tmp/got.json" | head -10
            fail=1
        fi
    done
done

# the new damage kinds: fixture -> oracle run it was made from
for pair in tabs_nbsp:psync-randread ci_timestamps:uring-seq qp_mail:pctlist \
            bom_zerowidth:grouped-3j html_page:two-groups; do
    f=${pair%%:*} n=${pair#*:}
    [ -s "$tmp/$n.want.json" ] || continue
    [ "$(jq 'map(.jobs | length) | add // 0' "$tmp/$n.want.json")" = 0 ] && continue
    numbers "$FSC_SOURCE_DIR/tests/damage/fixtures/$f.in.txt" > "$tmp/got.json"
    checked=$((checked + 1))
    if ! cmp -s "$tmp/$n.want.json" "$tmp/got.json"; then
        echo "FAIL: fixtures/$f.in.txt parses differently from oracle $n"
        diff "$tmp/$n.want.json" "$tmp/got.json" | head -10
        fail=1
    fi
done
echo "damage: $checked damaged documents compared"
exit $fail
