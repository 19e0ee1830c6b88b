#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lines wrapped at any width from 40 to 200 columns, by a mail client (at spaces) or a
# terminal (anywhere): every wrapped copy of runs whose JSON fio wrote at the same time
# must read to fio's numbers (wraps.py). The ASan build tries fewer widths.
set -euo pipefail
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
here=$(cd "$(dirname "$0")" && pwd)
step=8 old_step=16
case "${FSC_BUILD_DIR:-}" in *asan*) step=24 old_step=40; export FSC_WRAPS_INDENT=0 ;; esac
/usr/bin/python3 "$here/wraps.py" "$FIOSCOPE" "$step" "$FSC_CORPUS"/fio-3.33-oracle/*.normal+json.txt \
    "$FSC_SOURCE_DIR"/tests/oracle/fixtures/{fio342-latency-target,long-job-names,description,description-long,cmdprio-classes-numjobs3}.normal+json.txt
/usr/bin/python3 "$here/wraps.py" "$FIOSCOPE" "$old_step" "$FSC_CORPUS"/fio-{2.15,2.21,3.0,3.13}/g_normal_json.txt \
    "$FSC_SOURCE_DIR"/tests/oracle/fixtures/{client-server,unified-both,slat-clat-lat-pctl,libaio-randrw-3j}.normal+json.txt
