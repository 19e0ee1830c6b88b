#!/usr/bin/env bash
# The Python module (python/fioscope) on the library of this build, with Debian's
# python3 (pandas). Not in the sanitized suite: an ASan library cannot be loaded
# into an ordinary python3 (the C API's own test covers it there).
set -euo pipefail
case "${FSC_BUILD_DIR:-}" in *asan*) echo "python: run by the plain suite"; exit 0 ;; esac
: "${FSC_SOURCE_DIR:?}" "${FSC_BUILD_DIR:?}" "${FIOSCOPE:?}" "${FSC_CORPUS:?}"
export FIOSCOPE_LIBRARY=$FSC_BUILD_DIR/libfioscope.so.0
export PYTHONPATH=$FSC_SOURCE_DIR/python PYTHONDONTWRITEBYTECODE=1
exec /usr/bin/python3 "$FSC_SOURCE_DIR/tests/python/test_fioscope.py"
