#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two hosts' output with their names before its lines (pdsh, clush), one report
# after the other or interleaved: each host's runs read as its text alone (hosts.py).
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$FSC_SOURCE_DIR/tests/damage/hosts.py" "$FIOSCOPE" "$FSC_CORPUS" "$tmp"
