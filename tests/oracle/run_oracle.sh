#!/usr/bin/env bash
# The fio oracle test: normal text parsed by fioscope == fio's own JSON of the same run.
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
python3 "$here/oracle_check.py" "$FIOSCOPE" "${fixtures[@]}"
