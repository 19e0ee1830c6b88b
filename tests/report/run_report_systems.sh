#!/usr/bin/env bash
# Reports over several systems, checked by structure (the SVG's elements and text, the
# workbook's cells), since fonts differ between machines:
# - seeds/002 (one post, six systems by heading): the page names the systems, the
#   comparison chart has a panel per workload with every system and its change, the
#   numjobs scaling has RAID 1 alone (no average of systems), the Pivot sheet holds
#   the post's numbers as numbers;
# - two corpus version folders as two systems;
# - one plain file: no comparison;
# - `chart`: --title into SVG and PDF, did-you-mean for --type and names, no file
#   when there is nothing to draw.
set -euo pipefail
: "${FIOSCOPE:?}" "${FSC_CORPUS:?}"
PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$T"

"$FIOSCOPE" report -q -o post "$FSC_CORPUS/../seeds/002_6f6d330e65d35f74.txt" || fail "seeds/002: exit $?"
"$FIOSCOPE" report -q -o versions "$FSC_CORPUS/fio-3.0" "$FSC_CORPUS/fio-3.33" 2> /dev/null ||
  [ $? = 1 ] || fail "version folders: exit"
"$FIOSCOPE" report -q -o plain "$FSC_CORPUS/fio-3.33/b_randwrite_4jobs_nogroup.txt" || fail "plain: exit $?"

$PY - <<'PY' || exit 1
import glob, re, sys, zipfile
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
S = "{http://www.w3.org/2000/svg}"
def fail(m): print("FAIL:", m); sys.exit(1)

def svg(path):
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as e:
        fail("%s is not valid SVG/XML: %s" % (path, e))
def groups(root, cls): return [g.get("data-name") for g in root.iter(S + "g") if g.get("class") == cls]
def texts(root, cls): return [t.text for t in root.iter(S + "text") if t.get("class") == cls]

class Page(HTMLParser):
    def __init__(self):
        super().__init__(); self.in_sys = 0; self.systems = []; self.cur = None
    def handle_starttag(self, tag, a):
        if tag == "ul" and ("class", "systems") in a: self.in_sys = 1
        elif tag == "li" and self.in_sys: self.cur = []
    def handle_endtag(self, tag):
        if tag == "li" and self.cur is not None:
            self.systems.append("".join(self.cur).replace("(baseline)", "").strip()); self.cur = None
        elif tag == "ul": self.in_sys = 0
    def handle_data(self, d):
        if self.cur is not None: self.cur.append(d)
def page_systems(d):
    p = Page(); p.feed(open(d + "/index.html", encoding="utf-8").read()); return p.systems

def sheet(z, name):
    wb = z.read("xl/workbook.xml").decode()
    names = re.findall(r'<sheet name="([^"]+)"', wb)
    if name not in names: fail("no %s sheet: %s" % (name, names))
    ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
    shared = ["".join(t.text or "" for t in si.iter("{%s}t" % ns["m"]))
              for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", ns)]
    x = ET.fromstring(z.read("xl/worksheets/sheet%d.xml" % (names.index(name) + 1)))
    cells = {}
    for c in x.iter("{%s}c" % ns["m"]):
        v = c.find("m:v", ns)
        if v is None: continue
        cells[c.get("r")] = shared[int(v.text)] if c.get("t") == "s" else float(v.text)
    return cells

# every chart of every report: a PNG and a valid SVG with text
for d in ("post", "versions", "plain"):
    pngs = sorted(glob.glob(d + "/charts/*.png")); svgs = sorted(glob.glob(d + "/charts/*.svg"))
    if not pngs or [p[:-4] for p in pngs] != [s[:-4] for s in svgs]: fail("%s: PNG and SVG differ: %s %s" % (d, pngs, svgs))
    for s in svgs:
        if not texts(svg(s), "title"): fail(s + ": no title text")

# --- seeds/002: six systems named by the post's headings ---
want = ["磁盘基准测试", "RAID 0", "RAID 1", "RAID 5", "RAID 6", "RAID 10"]
if page_systems("post") != want: fail("page systems %s" % page_systems("post"))
c = svg("post/charts/compare-iops.svg")
if groups(c, "legend-entry") != want: fail("compare-iops legend %s" % groups(c, "legend-entry"))
panels = groups(c, "panel")
if panels != ["randwrite 4k qd32 x8", "randread 4k qd32 x8", "randrw 4k qd1 x8", "write 4m qd8 x1", "read 4m qd8 x1"]:
    fail("compare-iops panels %s" % panels)
vals, changes = texts(c, "value"), texts(c, "change")
for v in ("1.01M", "294k", "999k", "195", "237"):
    if v not in vals: fail("compare-iops lacks the value %s: %s" % (v, vals))
if "+243%" not in changes or changes.count("base") != 6: fail("compare-iops changes %s" % changes)
# the panel of randread: six bars, one per system (series groups named by system)
p = [g for g in c.iter(S + "g") if g.get("class") == "panel" and g.get("data-name") == "randread 4k qd32 x8"][0]
if [g.get("data-name") for g in p.iter(S + "g") if g.get("class") == "series"] != want: fail("randread panel series")
# numjobs scaling: RAID 1 alone ran 1 and 4 jobs; no average of six systems
n = svg("post/charts/scaling-numjobs.svg")
if groups(n, "series") != ["RAID 1"] or groups(n, "series-y2") != ["RAID 1 latency"]:
    fail("scaling-numjobs series %s %s" % (groups(n, "series"), groups(n, "series-y2")))
z = zipfile.ZipFile("post/report.xlsx")
pv = sheet(z, "Pivot")
heads = [v for v in pv.values() if isinstance(v, str)]
for s in want:
    if s + " (IOPS)" not in heads and s not in heads: fail("Pivot header lacks %s" % s)
if 1009000.0 not in pv.values() or 294000.0 not in pv.values(): fail("Pivot lacks the post's IOPS as numbers")
if "RAID 0 vs 磁盘基准测试 (%)" not in heads: fail("Pivot lacks the change columns: %s" % heads[:20])
if not [v for v in pv.values() if isinstance(v, float) and abs(v - 2.432) < 0.001]: fail("Pivot change +243.2% missing")
cmp = sheet(z, "Compare")
if "p (Mann-Whitney)" not in cmp.values(): fail("Compare sheet header")

# --- two corpus version folders: two systems ---
if page_systems("versions") != ["fio-3.0", "fio-3.33"]: fail("versions systems %s" % page_systems("versions"))
v = svg("versions/charts/compare-iops.svg")
if groups(v, "legend-entry") != ["fio-3.0", "fio-3.33"]: fail("versions legend %s" % groups(v, "legend-entry"))
pv = sheet(zipfile.ZipFile("versions/report.xlsx"), "Pivot")
if not any(isinstance(x, float) and abs(x - 258159.92004) < 1e-3 for x in pv.values()): fail("versions Pivot numbers")

# --- one plain file: no comparison ---
if glob.glob("plain/charts/compare-*"): fail("comparison charts for one system")
if page_systems("plain"): fail("systems list for one system")
if "Compare" in zipfile.ZipFile("plain/report.xlsx").read("xl/workbook.xml").decode(): fail("Compare sheet for one system")
PY

# --- chart ---
S="$FSC_CORPUS/fio-3.33/b_randwrite_4jobs_nogroup.txt"
"$FIOSCOPE" chart -q --title 'Four <jobs> & "one" file' --y write.iops -o t.svg "$S" || fail "chart -o svg: exit $?"
$PY -c "
import sys, xml.etree.ElementTree as ET
r = ET.parse('t.svg').getroot()
t = [x.text for x in r.iter('{http://www.w3.org/2000/svg}text') if x.get('class') == 'title']
sys.exit(t != ['Four <jobs> & \"one\" file'])" || fail "chart --title did not reach the SVG"
"$FIOSCOPE" chart -q --y iops -o t.pdf "$S" || fail "chart -o x.pdf: exit $?"
[ "$(head -c 4 t.pdf)" = "%PDF" ] || fail "chart -o x.pdf: not a PDF: $(head -c 8 t.pdf | od -c | head -1)"
"$FIOSCOPE" chart -q --y iops -o - "$S" > out.png || fail "chart -o -: exit $?"
head -c 4 out.png | od -c | grep -q 'P   N   G' || fail "chart -o -: not a PNG"
rc=0; "$FIOSCOPE" chart --type hetmap --y iops "$S" 2> err.txt || rc=$?
[ $rc = 2 ] && grep -q "did you mean 'heatmap'" err.txt || fail "--type hetmap: exit $rc, '$(cat err.txt)'"
rc=0; "$FIOSCOPE" chart --y iops --series sytem "$S" 2> err.txt || rc=$?
[ $rc = 2 ] && grep -q "did you mean 'system'" err.txt || fail "--series sytem: exit $rc, '$(cat err.txt)'"
rc=0; "$FIOSCOPE" chart --y iopz "$S" 2> err.txt || rc=$?
[ $rc = 2 ] && grep -q "did you mean 'iops'" err.txt || fail "--y iopz: exit $rc, '$(cat err.txt)'"
rc=0; "$FIOSCOPE" chart --y iops -o x.jpg "$S" 2> err.txt || rc=$?
[ $rc = 2 ] && grep -q "png, .svg or .pdf" err.txt || fail "-o x.jpg: exit $rc, '$(cat err.txt)'"
# randwrite only: nothing to draw for reads, no file written, and it says why
rc=0; "$FIOSCOPE" chart --y read.iops -o none.png "$S" 2> err.txt || rc=$?
[ $rc = 1 ] && [ ! -e none.png ] && grep -q "nothing to draw" err.txt || fail "no data: exit $rc, '$(cat err.txt)'"
echo ok
