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
