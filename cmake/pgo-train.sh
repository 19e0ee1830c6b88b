#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The training runs of the profile-guided build (the Makefile's `build`): an
# instrumented fioscope (FIOSCOPE_PGO_GENERATE) parses the repository's own fio
# outputs, as the program is mostly used: samples/, the oracle fixtures (fio 3.33,
# 3.42 and 2.15 text beside its JSON), the terse fixtures (fio 3.33 terse v3-v5 beside
# its JSON) and the golden tests' inputs (2.0 to 3.x text, JSON, terse, damaged and
# pasted text), one by one and as one text of some MB, which is read in pieces like a
# big log. The bench inputs are not used.
# A run that fails is said and the build goes on: its profile is only incomplete.
# usage: cmake/pgo-train.sh FIOSCOPE
set -uo pipefail
bin=$1
cd "$(dirname "$0")/.."
inputs=()
for f in samples/*.txt samples/*.json tests/oracle/fixtures/*.txt tests/formats/fixtures/*.txt tests/golden/*/input*; do
    [ -f "$f" ] && inputs+=("$f")
done
big=$(mktemp)
plain=$(mktemp)
trap 'rm -f "$big" "$plain"' EXIT
# about 9 MB of the fio 3.33 and 2.x fixtures back to back: parsed in pieces
for _ in $(seq 16); do cat tests/oracle/fixtures/*.txt tests/formats/fixtures/*.txt samples/*.txt; done > "$big"
# and a big log of fio's text alone (the reports of the common oracle fixtures without
# their JSON, about 6 MB): the whole file's plain check, then the pieces' checked
# scan, as a CI log of fio runs is read (a client's host prefixes, cpuio's or long
# names would make it no plain text). Without it the check's loop was left in the cold
# partition when other inputs grew (1% more instructions on fio 3.33 text)
for _ in $(seq 96); do
    for f in tests/oracle/fixtures/{psync,libaio,null,uring,pctlist,unified,kb-base,lat,slat,fsync,two}*.normal+json.txt; do
        sed '/^{$/,/^}$/d' "$f"
    done
done > "$plain"
run() {
    "$bin" "$@" > /dev/null || echo "pgo-train: fioscope $1 exited with $?; the profile is incomplete" >&2
}
run parse --jsonl -q --fail-on=none -j 1 "${inputs[@]}"
run parse --jsonl -q --fail-on=none -j 2 "$big"
run parse --jsonl -q --fail-on=none -j 2 "$plain"
run parse --jsonl -q --fail-on=none -j 1 "$plain"
run table -q --fail-on=none "${inputs[@]}"
