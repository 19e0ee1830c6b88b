#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lines cut short (a pager's chopped lines, a view's ellipsis): every fio version's
# text, cut at several widths, loses values but never reads one wrong (cut.py says
# how each kind is made, and what share must be kept).
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$FSC_SOURCE_DIR/tests/damage/cut.py" "$FIOSCOPE" "$FSC_CORPUS" "$tmp"
