#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Jobs named as fio's own words ("fio", "read", "cpu"...): the runs of the text itself
# (job_names.py says how the texts are made).
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
python3 "$FSC_SOURCE_DIR/tests/damage/job_names.py" "$FIOSCOPE" "$FSC_CORPUS"
