#!/usr/bin/env bash
# Issue #16's proof of sameness on documents nobody saved: structured mutants of the
# corpus, seeds and samples (numbers of every length and notation, unit and scale
# words, spacing, case, cut, doubled and dropped lines) parse to byte-identical
# output with the fast path and with the grammar alone. A fixed seed here (a failure
# is replayable); by hand: fastpath_mutants.py BIN DIRS --count 100000 --seed N.
source "$(dirname "$0")/../input/lib.sh"
count=3000
case "${FSC_BUILD_DIR:-}" in *asan*) count=600 ;; esac
/usr/bin/python3 "$FSC_SOURCE_DIR/tests/hardening/fastpath_mutants.py" "$FIOSCOPE" \
    "$FSC_CORPUS" "$FSC_CORPUS/../seeds" "$FSC_SOURCE_DIR/samples" --count "$count" --seed 16
