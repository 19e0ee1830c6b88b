#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Byte-identity check for parser optimizations: records the JSON of `fioscope parse -q`
# for every corpus document and seed and of `parse --damage` with its diagnostics (record), or compares against a recording (check).
#
# usage: bench/same_output.sh record|check FIOSCOPE_BINARY DIR
# env:   FSC_CORPUS (default ../shared/corpus), FSC_SEEDS (default ../shared/seeds)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:?record|check}; bin=${2:?binary}; dir=${3:?directory}
corpus=${FSC_CORPUS:-$here/../../shared/corpus}
seeds=${FSC_SEEDS:-$here/../../shared/seeds}
inputs() {
    find "$corpus"/fio-* "$corpus"/damaged "$corpus"/wild "$seeds" -type f \
        ! -name '*.json' ! -name '*.md' | sort
}
mkdir -p "$dir"
fail=0 n=0
while IFS= read -r f; do
    key=$(printf '%s' "${f#"$corpus"/}" | tr '/' '_')
    out=$("$bin" parse -q --fail-on=none -j 1 "$f" 2>&1; echo "rc=$?"
          "$bin" parse --damage --fail-on=none -j 1 "$f" 2>&1; echo "rc=$?")
    n=$((n + 1))
    if [ "$mode" = record ]; then
        printf '%s\n' "$out" > "$dir/$key"
    elif ! printf '%s\n' "$out" | cmp -s - "$dir/$key"; then
        echo "DIFFERS: $f"; fail=1
    fi
done < <(inputs)
echo "$mode: $n inputs"; [ "$mode" = check ] && [ $fail = 0 ] && echo "all identical"
exit $fail
