#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two runs side by side (paste, diff -y, sdiff): each column parses to its own runs,
# with the numbers of each text alone (side_by_side.py says how the pairs are made).
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$FSC_SOURCE_DIR/tests/damage/side_by_side.py" "$FIOSCOPE" "$FSC_CORPUS" "$tmp"
