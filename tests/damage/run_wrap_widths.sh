#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A fio line's tail wrapped onto the next line (fold, fold -s, a mail client; quoted,
# indented) at every width from 60 to 100: each copy reads as the unwrapped text, with
# the steady state, the zone resets and the group line of wrap_widths.py's fixtures.
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$FSC_SOURCE_DIR/tests/damage/wrap_widths.py" "$FIOSCOPE" "$FSC_SOURCE_DIR" "$tmp"
