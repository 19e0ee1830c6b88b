#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tolerance, round two (issue #15): prefixed, commented, marked-up, wrapped,
# interrupted, grepped and elided fio output (cases/, made by mkcases.py from runs
# whose JSON fio wrote at the same time) must read to fio's numbers, with a warning
# and a line number for whatever cannot be read.
set -euo pipefail
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
here=$(cd "$(dirname "$0")" && pwd)
/usr/bin/python3 "$here/check.py" "$FIOSCOPE" "$here/cases" "$FSC_CORPUS" "$FSC_SOURCE_DIR"
