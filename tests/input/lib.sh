# Shared helpers of the input shell tests (sourced, not a test itself).
set -euo pipefail
: "${FIOSCOPE:?path of the fioscope binary}" "${FSC_CORPUS:?corpus directory}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"

fail() { echo "FAIL: $*" >&2; exit 1; }

# The manifest of a JSONL stream as "path|member|status|runs|error" lines.
manifest() {
    python3 -c '
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    if "input" in o:
        e = o["input"]
        print("|".join(str(x) for x in (e["path"], e["member"], e["status"], e["runs"], e["error"])))
'
}

# Compare a manifest (file $1) with the expected text on stdin.
expect_manifest() {
    if ! diff -u - "$1"; then fail "manifest differs from the expected one (above)"; fi
}

# Fail unless file $1, in pieces of each size after it at -j 1 and at -j 2, reads as
# whole.jsonl (the caller's whole reading of it, -j 1).
pieces_read_as_whole() {
    local f=$1 piece j
    shift
    for piece in "$@"; do
        for j in 1 2; do
            FIOSCOPE_PIECE_BYTES=$piece "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" "$f" > pieces.jsonl
            cmp -s whole.jsonl pieces.jsonl ||
                fail "$f in pieces of $piece bytes (-j $j): $(diff whole.jsonl pieces.jsonl | head -2 | cut -c1-300)"
        done
    done
}

# Parse file $1 whole (-j 1) into whole.jsonl and in 4 KiB pieces (-j 2) into
# pieces.jsonl; fail unless the two are the same; how many pieces it went in: in
# $PIECES. (Call it as a command, not in $(...): fail would end only that subshell.)
whole_and_pieces() {
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$1" > whole.jsonl
    FIOSCOPE_PIECE_BYTES=4096 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 \
        "$1" > pieces.jsonl 2> pieces.err
    cmp -s whole.jsonl pieces.jsonl ||
        fail "$1: in pieces: $(diff <(manifest < whole.jsonl) <(manifest < pieces.jsonl))"
    PIECES=$(grep -c ': memory: ' pieces.err || true)
}

# As whole_and_pieces, in pieces of 64 KiB (so 256 KiB before a cut anywhere), and
# fail unless the text went in a piece per 100 kB at least (cut between its runs,
# not four steps long) and holds at least $2 runs.
cut_between_runs() {
    local f=$1 size n runs
    size=$(wc -c < "$f")
    [ "$size" -gt 600000 ] || fail "$f: only $size bytes"
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$f" > "$f.whole"
    FIOSCOPE_PIECE_BYTES=65536 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 2 "$f" \
        > "$f.pieces" 2> "$f.err"
    cmp -s "$f.whole" "$f.pieces" ||
        fail "$f: in pieces: $(diff <(manifest < "$f.whole") <(manifest < "$f.pieces") | head -5)"
    n=$(grep -c ': memory: ' "$f.err" || true)
    [ "$n" -ge $((size / 100000)) ] || fail "$f: $n pieces for $size bytes"
    runs=$(grep -c '^{"id":' "$f.whole")
    [ "$runs" -ge "$2" ] || fail "$f: $runs runs, $2 wanted"
}

# Parse file $1 read whole (-j 1) and in pieces of 64 KiB at -j 1 and at -j 2; fail
# unless the three are the same and hold $2 runs at least. The runs in $RUNS, how many
# pieces (at -j 2) in $PIECES. (Call it as a command, not in $(...).)
same_in_64k_pieces() {
    local f=$1 j
    "$FIOSCOPE" parse --jsonl -q --fail-on=none -j 1 "$f" > whole.jsonl
    RUNS=$(grep -c '^{"id":' whole.jsonl || true)
    [ "$RUNS" -ge "$2" ] || fail "$f: $RUNS runs read whole"
    for j in 1 2; do
        FIOSCOPE_PIECE_BYTES=65536 FIOSCOPE_SHOW_MEMORY=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none -j "$j" "$f" \
            > pieces.jsonl 2> pieces.err
        cmp -s whole.jsonl pieces.jsonl ||
            fail "$f at -j $j: in pieces, not as read whole: $(diff whole.jsonl pieces.jsonl | head -4 | cut -c1-300)"
    done
    PIECES=$(grep -c ': memory: ' pieces.err || true)
}
