#!/usr/bin/env bash
# The fio oracle test: normal text parsed by fioscope == fio's own JSON of the same run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fixtures=("$here"/fixtures/*.normal+json.txt)
if [ -d "${FSC_CORPUS:-}/fio-3.33-oracle" ]; then
    fixtures+=("$FSC_CORPUS"/fio-3.33-oracle/*.normal+json.txt)
fi
python3 "$here/oracle_check.py" "$FIOSCOPE" "${fixtures[@]}"
