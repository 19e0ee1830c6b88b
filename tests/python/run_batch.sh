#!/usr/bin/env bash
# The recipes of docs/batch.md, run as they are written there: the Dask job (a
# LocalCluster) over the corpus and over a tree of archives of it, and the GNU
# parallel pipeline. Each must find exactly as many runs as `fioscope parse`.
case "${FSC_BUILD_DIR:-}" in *asan*) echo "batch: run by the plain suite"; exit 0 ;; esac
source "$(dirname "$0")/../input/lib.sh"   # a temporary folder, fail()
: "${FSC_SOURCE_DIR:?}" "${FSC_BUILD_DIR:?}"
export FIOSCOPE_LIBRARY=$FSC_BUILD_DIR/libfioscope.so.0
export PYTHONPATH=$FSC_SOURCE_DIR/python PYTHONDONTWRITEBYTECODE=1
mkdir bin && ln -s "$FIOSCOPE" bin/fioscope && export PATH=$T/bin:$PATH

# The fenced block that follows the marker "<!-- test: NAME" in docs/batch.md.
recipe() {
    awk -v name="$1" '
        index($0, "<!-- test: " name) == 1 { armed = 1; next }
        armed && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$FSC_SOURCE_DIR/docs/batch.md"
}
recipe dask > fio_dask.py
recipe parallel > parallel.sh
[ -s fio_dask.py ] && [ -s parallel.sh ] || fail "recipes not found in docs/batch.md"

runs_of() { # the number of runs `fioscope parse` finds in $1
    "$FIOSCOPE" parse -q --fail-on=none "$1" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))'
}

# a tree of archives made of the corpus: a tar.gz per folder, a zip, one tar.xz
mkdir -p archives/2024 archives/2025
for d in "$FSC_CORPUS"/*/; do
    name=$(basename "$d")
    case $name in
        fio-2*) tar -czf "archives/2024/$name.tar.gz" -C "$FSC_CORPUS" "$name" ;;
        wild) (cd "$FSC_CORPUS" && zip -qr "$T/archives/2025/$name.zip" "$name") ;;
        fio-3.0) tar -cJf "archives/2025/$name.tar.xz" -C "$FSC_CORPUS" "$name" ;;
        *) tar -czf "archives/2025/$name.tar.gz" -C "$FSC_CORPUS" "$name" ;;
    esac
done

# --- Dask, LocalCluster: as many runs as `fioscope parse`
want=$(runs_of "$FSC_CORPUS")
[ "$want" -gt 100 ] || fail "corpus has only $want runs"
out=$(/usr/bin/python3 fio_dask.py "$FSC_CORPUS" 2> dask.err) || { cat dask.err; fail "dask recipe"; }
got=$(echo "$out" | sed -n 's/^[0-9]* files, \([0-9]*\) runs, [0-9]* rows$/\1/p')
[ "$got" = "$want" ] || fail "dask on the corpus: $out; fioscope parse: $want runs"
[ -s all-runs.csv ] || fail "no all-runs.csv"
want_a=$(runs_of archives)
[ "$want_a" = "$want" ] || fail "the archives hold $want_a runs, the corpus $want"
out=$(/usr/bin/python3 fio_dask.py archives 2> dask.err) || { cat dask.err; fail "dask recipe on archives"; }
got=$(echo "$out" | sed -n 's/^[0-9]* files, \([0-9]*\) runs, [0-9]* rows$/\1/p')
[ "$got" = "$want_a" ] || fail "dask on archives: $out; fioscope parse: $want_a runs"
/usr/bin/python3 - <<'PY' || fail "the DataFrame of all runs"
import pandas as pd
df = pd.read_csv("all-runs.csv", low_memory=False)
assert {"id", "jobname", "dir", "iops", "bw_bytes", "clat_ns.mean"} <= set(df.columns)
assert df["source.member"].notna().all()          # every run came out of an archive
assert (df["iops"].dropna() >= 0).all() and len(df) > 200
PY

# --- GNU parallel: the same count from the JSON Lines stream
if command -v parallel > /dev/null; then
    cp -r archives fio-archives
    export PARALLEL=--will-cite
    got=$(bash parallel.sh 2> parallel.err) || { cat parallel.err; fail "parallel recipe"; }
    [ "$got" = "$want" ] || fail "GNU parallel found $got runs, fioscope parse $want"
else
    fail "GNU parallel is not installed (Debian package parallel, in the Makefile's DEB_PKGS)"
fi
echo "batch: dask and parallel recipes: $want runs each"
