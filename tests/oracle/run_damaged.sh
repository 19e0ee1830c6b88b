#!/usr/bin/env bash
# Damaged pastes of fresh fio 3.33 runs (corpus/damaged): every field must still come out
# and equal fio's own JSON of the run (NAME.expected.json).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${FSC_CORPUS:?}/damaged
kinds=${FSC_DAMAGE_KINDS:-"crlf fenced gutter progress_junk strip_indent typos"}
args=()
for kind in $kinds; do
    for f in "$dir"/*."$kind".txt; do
        name=$(basename "$f"); name=${name%%.*}
        args+=("$f=$dir/$name.expected.json")
    done
done
python3 "$here/oracle_check.py" "$FIOSCOPE" "${args[@]}"
