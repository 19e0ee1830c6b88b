# Shared by the hardening case scripts (sourced, not a test itself): each case_NAME
# function runs on its own, every failing case is reported, so that a script can also
# be pointed at an older binary (FIOSCOPE=old/fioscope) to see which attacks worked.
source "$(dirname "${BASH_SOURCE[0]}")/../input/lib.sh"
PY=/usr/bin/python3
G=$FSC_CORPUS/fio-3.33/a_randread_psync.txt # job randread, 85.5MiB read
SAMPLE=$FSC_SOURCE_DIR/samples/g_json_nogroup.json
asan=false
case "${FSC_BUILD_DIR:-}" in *asan*) asan=true ;; esac

# CPU seconds a case may take: minutes for the quadratic code these cases were
# written against, well under a second now (ASan: about ten times slower).
cpu_limit=$($asan && echo 60 || echo 20)
# run with a CPU limit; the status of the command (137/152 when the limit killed it)
limited() { (ulimit -t "$cpu_limit"; "$@"); }

failed=()
run_case() {
    local name=$1
    local t0=$SECONDS
    # not in an if: errexit is off in a condition, and a failing step (a Python
    # assert, a command without '|| fail') must fail the case
    local rc=0
    set +e
    (set -euo pipefail; "case_$name")
    rc=$?
    set -e
    if [ "$rc" = 0 ]; then
        echo "ok   $name ($((SECONDS - t0))s)"
    else
        echo "FAIL $name"
        failed+=("$name")
    fi
}

# Run the named cases; fail when any of them failed.
run_cases() {
    for c in "$@"; do run_case "$c"; done
    [ ${#failed[@]} = 0 ] || fail "failing cases: ${failed[*]}"
    echo ok
}
