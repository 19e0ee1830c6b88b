#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One invocation's two printouts (--output-format=normal,json, saved as out.txt and
# out.json) shown one after the other as `tail -n +1 out.txt out.json` shows them: a
# blank line and the heading "==> out.json <==" between the report and its JSON. Read
# whole, each pair is one run (both formats, parse/merge.c); read in pieces it must
# be too: no piece may end between the two (a cut after the disk stats, before the
# heading, made them two runs wherever the pieces' sizes put one there).
. "$(dirname "$0")/lib.sh"

python3 - "$FSC_SOURCE_DIR/tests/oracle/fixtures" "$FSC_CORPUS/fio-3.33-oracle" <<'PY'
import glob, os, sys
out = []
pairs = 0
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.normal+json.txt")) +
               glob.glob(os.path.join(sys.argv[2], "*.normal+json.txt")))
for rep in range(4):
    for f in files:
        t = open(f).read()
        # fio prints the preamble, the JSON document, then the report: the text
        # file gets the preamble and the report, the JSON file the document
        i = t.find("\n{\n") + 1
        j = t.find("\n}\n", i) + 2
        if i <= 0 or j < i or "Disk stats" not in t[j:]:
            continue
        name = os.path.basename(f).split(".")[0]
        out += ["==> %s-%d.txt <==" % (name, rep), (t[:i] + t[j + 1:]).rstrip("\n"), "",
                "==> %s-%d.json <==" % (name, rep), t[i:j].rstrip("\n"), ""]
        pairs += 1
open("tail.txt", "w").write("\n".join(out))
open("pairs", "w").write(str(pairs))
PY
pairs=$(cat pairs)
[ "$pairs" -ge 20 ] || fail "only $pairs fixtures with disk stats"

same_in_64k_pieces tail.txt "$pairs"
[ "$PIECES" -ge 4 ] || fail "tail.txt: in $PIECES pieces only"
merged=$(python3 -c '
import json, sys
n = 0
for line in open("whole.jsonl"):
    r = json.loads(line)
    if "source" in r and r["source"].get("formats") == ["normal", "json"]:
        n += 1
print(n)')
[ "$merged" = "$pairs" ] || fail "tail.txt: $merged runs of both formats, not $pairs"
echo "ok: $pairs report+JSON pairs under tail's headings, one run each, whole and in $PIECES pieces"
