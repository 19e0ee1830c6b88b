#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Slips of copying and logging (a line doubled, log levels that change from line to
# line, a text cut off inside a line): every fio version's text must parse to the
# same numbers, or lose values with a warning, never read a wrong one (slips.py).
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$FSC_SOURCE_DIR/tests/damage/slips.py" "$FIOSCOPE" "$FSC_CORPUS" "$tmp"
