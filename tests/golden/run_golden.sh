#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Golden tests of the CLI: every tests/golden/<case>/args holds the arguments of one
# fioscope call (one line; @CORPUS@ is the corpus folder, @CASE@ the case's own folder). The case passes when stdout
# equals expected.out, the exit status equals expected.rc (0 if absent) and, when
# expected.err exists (usage errors), stderr equals it. FSC_UPDATE_GOLDEN=1 rewrites the expectations.
set -u
: "${FIOSCOPE:?FIOSCOPE must name the fioscope binary}"
: "${FSC_SOURCE_DIR:?}"
: "${FSC_CORPUS:?}"
dir="$FSC_SOURCE_DIR/tests/golden"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 cases=0
for args_file in "$dir"/*/args; do
    case_dir=${args_file%/args}
    name=${case_dir##*/}
    line=$(head -n 1 "$args_file")
    line=${line//@CORPUS@/$FSC_CORPUS}
    line=${line//@CASE@/$case_dir}
    eval "set -- $line"
    cases=$((cases + 1))
    rc=0
    LC_ALL=C.UTF-8 NO_COLOR=1 "$FIOSCOPE" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    sed -i "s|$FSC_CORPUS|@CORPUS@|g; s|$case_dir|@CASE@|g" "$tmp/out" "$tmp/err"
    if [ "${FSC_UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$tmp/out" "$case_dir/expected.out"
        if [ "$rc" != 0 ]; then echo "$rc" >"$case_dir/expected.rc"; else rm -f "$case_dir/expected.rc"; fi
        # stderr is pinned for usage errors only: other messages belong to other modules
        if [ "$rc" = 2 ]; then cp "$tmp/err" "$case_dir/expected.err"; else rm -f "$case_dir/expected.err"; fi
        continue
    fi
    want_rc=0
    [ -f "$case_dir/expected.rc" ] && want_rc=$(cat "$case_dir/expected.rc")
    ok=1
    if ! diff -u "$case_dir/expected.out" "$tmp/out"; then ok=0; fi
    if [ "$rc" != "$want_rc" ]; then echo "$name: exit status $rc, expected $want_rc"; ok=0; fi
    if [ -f "$case_dir/expected.err" ] && ! diff -u "$case_dir/expected.err" "$tmp/err"; then ok=0; fi
    if [ $ok = 1 ]; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
done
echo "$cases golden cases, $fails failed"
[ "$cases" -gt 0 ] && [ "$fails" = 0 ]
