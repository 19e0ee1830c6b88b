#!/usr/bin/env bash
# The complexity check (issue #18): every document shape of the bad-input matrix and
# of the round-two findings at 1x, 2x, 4x and 8x its size; CPU time and peak memory
# must not grow faster than linearly (tests/hardening/complexity.py says how). Plain
# build only: ASan's shadow memory and quarantine make memory ratios meaningless.
source "$(dirname "$0")/../input/lib.sh"
case "${FSC_BUILD_DIR:-}" in *asan*) echo "complexity: run by the plain suite"; exit 0 ;; esac
/usr/bin/python3 "$FSC_SOURCE_DIR/tests/hardening/complexity.py" "$FIOSCOPE" "$T/work"
