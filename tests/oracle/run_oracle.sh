#!/usr/bin/env bash
# The fio oracle test: normal text parsed by fioscope == fio's own JSON of the same run.
# Each fixture is read twice: as fio wrote it, and its text alone (the JSON taken out),
# as a report is pasted without it; fio's JSON block between the text's lines must
# not be what keeps them one run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fixtures=("$here"/fixtures/*.normal+json.txt)
if [ -d "${FSC_CORPUS:-}/fio-3.33-oracle" ]; then
    fixtures+=("$FSC_CORPUS"/fio-3.33-oracle/*.normal+json.txt)
    # older fio versions wrote the same run as JSON and text too (--output-format=normal,json)
    for v in 2.15 2.21 3.0 3.13 3.33; do
        fixtures+=("$FSC_CORPUS"/fio-$v/g_normal_json.txt "$FSC_CORPUS"/fio-$v/g_normal_terse_json.txt)
    done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
alone=()
for f in "${fixtures[@]}"; do
    text="$tmp/${#alone[@]}-$(basename "$f")"
    # fio's JSON: from a line "{" to a line "}"
    awk '$0 == "{" { skip = 1 } !skip { print } $0 == "}" { skip = 0 }' "$f" > "$text"
    alone+=("$text=$f")
done
python3 "$here/oracle_check.py" "$FIOSCOPE" "${fixtures[@]}" "${alone[@]}"
