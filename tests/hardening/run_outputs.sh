#!/usr/bin/env bash
# Safe outputs (issue #8), for what tests/report/run_report.sh and the goldens do not
# already check: hostile job names (script and attribute breakouts, formulas starting
# with = + - @ and tab, Markdown pipes and backticks, CSV quotes and line breaks) in
# the HTML page and its embedded JSON, report.xlsx, report.md, table md/csv/tsv/html;
# output files: no temporary file left on success or on a write error, device paths
# (/dev/null, /dev/full) written in place and never replaced, the usual file mode.
source "$(dirname "$0")/../input/lib.sh"

# A real fio 3.33 JSON run (4 jobs) grown to one job per hostile name.
python3 - "$FSC_SOURCE_DIR/samples/g_json_nogroup.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
names = ["</script><script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "=1+2", "+cmd",
         "-2+3", "@SUM(A1)", "a|b`c`", 'q"u,o\nte', "\tx", "<!--", "a&b"]
jobs = [copy.deepcopy(d["jobs"][i % len(d["jobs"])]) for i in range(len(names))]
for j, n in zip(jobs, names):
    j["jobname"] = n
d["jobs"] = jobs
json.dump(d, open("hostile.json", "w"), indent=1)
json.dump(names, open("names.json", "w"))
PY

# --- the HTML report: the JSON data and the page's sorting script only, no element or
# attribute from the input, the names shown as text, the JSON intact ---
"$FIOSCOPE" report -q -o r hostile.json > /dev/null || fail "report: exit $?"
python3 - r/index.html names.json <<'PY' || fail "index.html is not safe"
import json, sys
from html.parser import HTMLParser
names = json.load(open(sys.argv[2]))
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.texts, self.scripts, self.cur = [], [], [], None
    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        if tag == "script":
            self.cur = []
    def handle_endtag(self, tag):
        if tag == "script" and self.cur is not None:
            self.scripts.append("".join(self.cur)); self.cur = None
    def handle_data(self, data):
        (self.cur if self.cur is not None else self.texts).append(data)
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
scripts = [t for t in p.tags if t[0] == "script"]
# the JSON data, and the page's own table-sorting script (no src, nothing from input)
assert len(scripts) == 2 and ("type", "application/json") in scripts[0][1], scripts
assert not [a for t in scripts for a in t[1] if a[0] == "src"], "a script from elsewhere"
assert "Sortable tables" in p.scripts[1] and not any(n in p.scripts[1] for n in names if len(n) > 3), "script"
imgs = [dict(t[1]).get("src", "") for t in p.tags if t[0] == "img"]
assert imgs and all(s.startswith("data:image/png;base64,") for s in imgs), "an <img> from the input"
assert not [a for t in p.tags for a in t[1] if a[0].startswith("on")], "an on* attribute"
data = json.loads(p.scripts[0])
found = json.dumps(data, ensure_ascii=False)
text = "".join(p.texts)
for n in names:
    assert json.dumps(n, ensure_ascii=False)[1:-1] in found, ("not in the page's JSON", n)
    if "\n" not in n and "\t" not in n:
        assert n in text, ("not shown as text", n)
PY

# --- report.xlsx: every cell holding a job name is a string, no formula anywhere ---
python3 - r/report.xlsx names.json <<'PY' || fail "report.xlsx"
import json, re, sys, zipfile
names = json.load(open(sys.argv[2]))
z = zipfile.ZipFile(sys.argv[1])
shared = [re.sub(r"<[^>]+>", "", si) for si in
          re.findall(r"<si>(.*?)</si>", z.read("xl/sharedStrings.xml").decode(), re.S)]
unxml = lambda s: s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
shared = [unxml(s) for s in shared]
for n in names:
    assert n in shared, ("not a shared string", n)
for sheet in [f for f in z.namelist() if f.startswith("xl/worksheets/sheet")]:
    x = z.read(sheet).decode()
    assert "<f>" not in x and "<f " not in x, sheet + ": has a formula"
    assert 't="str"' not in x and 't="e"' not in x, sheet
PY

# --- report.md and table --format md: no raw HTML, pipes and backticks escaped, one
# line per row ---
for md in r/report.md table.md; do
    [ "$md" = table.md ] && { "$FIOSCOPE" table -q --format md hostile.json > table.md || fail "table md"; }
    grep -q '<script\|<img\|<!--' "$md" && fail "$md: raw HTML from a job name"
    grep -qF 'a\|b\`c\`' "$md" || fail "$md: pipe or backtick not escaped"
    grep -qF '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;' "$md" || fail "$md: script name"
    python3 - "$md" <<'PY' || fail "$md: a table row has the wrong number of cells"
import re, sys
cells = lambda l: len(re.split(r"(?<!\\)\|", l.rstrip("\n"))) - 2
tables, cur = [], []
for l in open(sys.argv[1], encoding="utf-8"):
    if l.startswith("|"):
        cur.append(cells(l))
    elif cur:
        tables.append(cur); cur = []
tables += [cur] if cur else []
assert tables and all(len(set(t)) == 1 for t in tables), tables
PY
done

# --- CSV (RFC 4180, formulas neutralized) and TSV ---
"$FIOSCOPE" table -q --format csv --metrics jobname,write.iops hostile.json > t.csv || fail "csv"
"$FIOSCOPE" table -q --format tsv --metrics jobname,write.iops hostile.json > t.tsv || fail "tsv"
python3 - t.csv t.tsv names.json <<'PY' || fail "csv/tsv"
import csv, json, sys
names = json.load(open(sys.argv[3]))
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8"), strict=True))
got = [r[0] for r in rows[1:]]
want = ["'" + n if n[0] in "=+-@\t" else n for n in names]
assert got == want, (got, want)
assert all(len(r) == 2 for r in rows), rows
tsv = open(sys.argv[2], encoding="utf-8").read().splitlines()
assert len(tsv) == len(names) + 1, tsv           # no line break from a name
for line in tsv[1:]:
    name = line.split("\t")[0]
    assert len(line.split("\t")) == 2, line        # no tab from a name
    assert name[:1] not in ("=", "+", "-", "@"), name
PY
"$FIOSCOPE" table -q --format html hostile.json > t.html || fail "table html"
grep -q '<script\|<img' t.html && fail "table html: raw markup"

# --- hostile archive member names and headings reach the page, the workbook and the
# Markdown only as text ---
python3 - "$FSC_CORPUS/fio-3.33/a_randread_psync.txt" <<'PY'
import io, sys, tarfile
g = open(sys.argv[1], "rb").read()
doc = b"# =HYPERLINK(\"x\") </script><img src=x onerror=alert(2)>\n\n```\n" + g + b"```\n"
with tarfile.open("evil.tar", "w") as t:
    for name, data in (("<img src=x onerror=alert(3)>.md", doc), ("=cmd|' /C calc'!A0.txt", g)):
        info = tarfile.TarInfo(name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
PY
"$FIOSCOPE" report -q -o r2 evil.tar > /dev/null || fail "report of evil.tar: exit $?"
python3 - r2 <<'PY' || fail "hostile member names or headings"
import re, sys, zipfile
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []
    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
p = P()
page = open(sys.argv[1] + "/index.html", encoding="utf-8").read()
p.feed(page)
assert all(a.get("src", "").startswith("data:image/png;base64,") for t, a in p.tags if t == "img")
assert not [k for t, a in p.tags for k in a if k.startswith("on")]
assert len([t for t, a in p.tags if t == "script"]) == 2  # the data and the table sorter
assert "&lt;img src=x onerror=alert(3)&gt;.md" in page and "randread" in page
z = zipfile.ZipFile(sys.argv[1] + "/report.xlsx")
shared = z.read("xl/sharedStrings.xml").decode()
assert "=cmd|&apos; /C calc&apos;!A0.txt" in shared or "=cmd|' /C calc'!A0.txt" in shared, "member name"
assert '=HYPERLINK("x")' in shared or "=HYPERLINK(&quot;x&quot;)" in shared, "heading"
for n in z.namelist():
    if n.startswith("xl/worksheets/sheet"):
        x = z.read(n).decode()
        assert "<f>" not in x and 't="str"' not in x, n
md = open(sys.argv[1] + "/report.md", encoding="utf-8").read()
assert "<img" not in md and "</script>" not in md and "=cmd\\|' /C calc'" in md
PY

# --- output files ---
G=$FSC_CORPUS/fio-3.33/a_randread_psync.txt
mkdir out
"$FIOSCOPE" parse -q -o out/a.json "$G" || fail "parse -o: exit $?"
[ "$(ls -A out)" = a.json ] || fail "parse -o left: $(ls -A out)"
python3 -c 'import json; assert json.load(open("out/a.json"))["runs"][0]["jobs"][0]["read"]["io_bytes"] == 89653248' ||
    fail "parse -o wrote the wrong document"
[ "$(stat -c %a out/a.json)" = "$(printf %o $((0666 & ~$(umask))))" ] ||
    fail "mode $(stat -c %a out/a.json) is not 0666 minus the umask"
chmod 640 out/a.json
"$FIOSCOPE" parse -q -o out/a.json "$G" || fail "parse -o over a file"
[ "$(stat -c %a out/a.json)" = 640 ] || fail "replacing a file changed its mode"
# a write error (file size limit: EFBIG): exit 1, the file named, nothing left
set +e
( trap '' XFSZ; ulimit -f 2; "$FIOSCOPE" parse -q -o out/big.json "$G" "$G" "$G" "$G" ) 2> err.txt
rc=$?
set -e
[ "$rc" = 1 ] || fail "write error: exit $rc, want 1"
grep -qx 'fioscope: out/big.json: write error: File too large' err.txt || fail "write error: $(cat err.txt)"
[ "$(ls -A out)" = a.json ] || fail "write error left: $(ls -A out)"
# a directory that cannot be created in, a directory as the output
for o in no/such/dir/x.json out; do
    set +e
    "$FIOSCOPE" parse -q -o "$o" "$G" 2> err.txt
    rc=$?
    set -e
    [ "$rc" = 1 ] || fail "-o $o: exit $rc, want 1"
    grep -q "^fioscope: $o: cannot" err.txt || fail "-o $o: $(cat err.txt)"
done
[ "$(ls -A out)" = a.json ] || fail "left in out: $(ls -A out)"
# device files are written in place, never replaced by a regular file
"$FIOSCOPE" parse -q -o /dev/null "$G" || fail "-o /dev/null: exit $?"
[ -c /dev/null ] || fail "/dev/null is no longer a device"
set +e
"$FIOSCOPE" parse -q --jsonl -o /dev/full "$G" 2> err.txt
rc=$?
set -e
[ "$rc" = 1 ] || fail "-o /dev/full: exit $rc, want 1"
[ -c /dev/full ] || fail "/dev/full is no longer a device"
grep -qx 'fioscope: /dev/full: write error: No space left on device' err.txt || fail "/dev/full: $(cat err.txt)"
# standard output full: the runs go out gathered (writev), and the error says why
set +e
"$FIOSCOPE" parse -q --jsonl "$G" > /dev/full 2> err.txt
rc=$?
set -e
[ "$rc" = 1 ] || fail "stdout /dev/full: exit $rc, want 1"
grep -qx 'fioscope: standard output: write error: No space left on device' err.txt || fail "stdout /dev/full: $(cat err.txt)"
ls /dev | grep -q '\.tmp\.' && fail "a temporary file in /dev"
# a symlink stays a symlink, its target gets the data
ln -s a.json out/link.json
"$FIOSCOPE" table -q --format csv -o out/link.json "$G" || fail "-o symlink"
[ -L out/link.json ] && grep -q '^label,' out/a.json || fail "the symlink was replaced"
echo ok
