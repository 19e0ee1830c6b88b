#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Terminal controls around fio's text (colour codes of CI logs and wrappers, `script`
# recordings, ESC shown as "^[" or lost): every fio version's text must parse to the
# same numbers as without them (terminal.py says how each kind is made).
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$FSC_SOURCE_DIR/tests/damage/terminal.py" "$FIOSCOPE" "$FSC_CORPUS" "$tmp"
