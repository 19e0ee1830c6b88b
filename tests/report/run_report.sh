#!/bin/bash
# fioscope report / chart end to end on real fio JSON: files, workbook cells and
# formats, native charts, PNG sizes, HTML escaping, foreign folders, determinism.
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
S=$FSC_SOURCE_DIR/samples

# A real fio 3.33 JSON run whose job names are hostile: a formula and a script end.
python3 - "$S/g_json_nogroup.json" "$T/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][0]["jobname"] = "=cmd()"
d["jobs"][1]["jobname"] = "</script><b>x"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY

cd "$T" || exit 1
"$FIOSCOPE" report --label-from=job -o r1 "$S/g_json_nogroup.json" hostile.json > out.txt 2> err.txt || fail "report exit $?"
grep -q "r1/index.html" err.txt || fail "report does not say where it is: $(cat err.txt)"
[ ! -s out.txt ] || fail "report status line on stdout: $(cat out.txt)"
"$FIOSCOPE" report -q -o r0 "$S/g_json_nogroup.json" > out.txt 2> err.txt || fail "report -q exit $?"
[ ! -s out.txt ] && [ ! -s err.txt ] || fail "report -q is not quiet: $(cat out.txt err.txt)"
for f in index.html report.md report.xlsx .fioscope-report charts/iops.png charts/clat-percentiles.png \
         charts/latency-buckets.png charts/disk-util.png charts/iops.svg charts/clat-percentiles.svg; do
  [ -s "r1/$f" ] || fail "missing r1/$f"
done
ls r1 | grep -q tmp && fail "temporary file left behind"

python3 - r1 <<'PY' || exit 1
import re, struct, sys, zipfile
d = sys.argv[1]
def fail(m): print("FAIL:", m); sys.exit(1)
z = zipfile.ZipFile(d + "/report.xlsx")
names = z.namelist()
wb = z.read("xl/workbook.xml").decode()
sheets = re.findall(r'<sheet name="([^"]+)"', wb)
# two input files: two systems (their names), so a Compare sheet too
if sheets != ["Summary", "Pivot", "Compare", "IOPS", "Bandwidth", "Latency", "CPU", "Sources"]:
    fail("sheet names %s" % sheets)
if "xl/charts/chart1.xml" not in names:
    fail("no native chart")
if "<c:barChart>" not in z.read("xl/charts/chart1.xml").decode():
    fail("chart1 is not a bar chart")
shared = re.findall(r"<si><t[^>]*>([^<]*)</t></si>", z.read("xl/sharedStrings.xml").decode())
styles = z.read("xl/styles.xml").decode()
numfmts = dict(re.findall(r'<numFmt numFmtId="(\d+)" formatCode="([^"]+)"', styles))
xfs = re.findall(r"<xf [^>]*?/?>", styles.split("<cellXfs")[1])
def cells(sheet):
    x = z.read("xl/worksheets/sheet%d.xml" % (sheets.index(sheet) + 1)).decode()
    if "<f>" in x: fail(sheet + ": has a formula")
    out = {}
    for ref, attrs, v in re.findall(r'<c r="([A-Z]+\d+)"([^>]*)><v>([^<]*)</v></c>', attrs_fix(x)):
        s = re.search(r's="(\d+)"', attrs); t = re.search(r't="(\w+)"', attrs)
        out[ref] = (t.group(1) if t else "n", v, int(s.group(1)) if s else 0)
    return out
def attrs_fix(x): return x
def fmt_of(style):
    m = re.search(r'numFmtId="(\d+)"', xfs[style]); return numfmts.get(m.group(1)) if m else None
iops = cells("IOPS")
# header: unit-free IOPS; first data row is job 1 of the real run (=cmd()), a string cell
if iops["A1"][0] != "s" or shared[int(iops["A1"][1])] != "label": fail("IOPS!A1 %s" % (iops["A1"],))
hostile_rows = [r for r, c in iops.items() if r.startswith("A") and c[0] == "s" and shared[int(c[1])] == "=cmd()"]
if not hostile_rows: fail("'=cmd()' is not a string cell")
def col_of(cells, title):
    for r, c in cells.items():
        if re.fullmatch(r"[A-Z]+1", r) and c[0] == "s" and shared[int(c[1])] == title: return r[:-1]
    fail("no column %r" % title)
if shared[int(iops["B1"][1])] != "run": fail("IOPS!B1 is not the run column")
W = col_of(iops, "write IOPS")
vals = sorted(float(c[1]) for r, c in iops.items() if r[:-1] == W and r != W + "1" and c[0] == "n")
# fio 3.33 g_json_nogroup.json: write iops of the four jobs (both files)
for want in (19425.161611, 18912.376238):
    if want not in vals: fail("IOPS values %s lack %s" % (vals, want))
b2 = iops[W + "2"]
if b2[0] != "n" or fmt_of(b2[2]) != "#,##0.0": fail("IOPS!%s2 not a number with format #,##0.0: %s %s" % (W, b2, fmt_of(b2[2])))
bw = cells("Bandwidth")
WB = col_of(bw, "write BW (MiB/s)")
# 79565461 bytes/s (job 1 write bw_bytes) shown in MiB/s
if not any(abs(float(c[1]) - 79565461 / 1048576) < 1e-9 for r, c in bw.items() if r[:-1] == WB and c[0] == "n"):
    fail("bandwidth in MiB/s missing: %s" % bw)
src = cells("Sources")
if not any(c[0] == "s" and shared[int(c[1])] == "json" for c in src.values()): fail("Sources sheet lacks format")
if not any(c[0] == "s" and shared[int(c[1])] == "fio-3.33" for c in src.values()): fail("Sources sheet lacks fio version")
core = z.read("docProps/core.xml").decode()
if "2020-01-01T00:00:00Z" not in core: fail("created time is not fixed: " + core)
# PNG size from IHDR
png = open(d + "/charts/iops.png", "rb").read()
if png[:8] != b"\x89PNG\r\n\x1a\n" or struct.unpack(">II", png[16:24]) != (1600, 900): fail("iops.png not 1600x900")
PY

# HTML: one page, no network, hostile job name escaped, JSON cannot close its script
H=r1/index.html
[ "$(grep -o '</script>' $H | wc -l)" = 2 ] || fail "index.html has other scripts than the data and the sorter"
grep -qF '&lt;/script&gt;&lt;b&gt;x' $H || fail "job name not HTML-escaped in tables"
grep -q '<b>x' $H && fail "raw markup from a job name"
grep -qE '(src|href)="(https?:)?//|@import|url\(' $H && fail "index.html fetches from the network"
grep -c 'data:image/png;base64,iVBORw0KGgo' $H | grep -qv '^0$' || fail "charts are not inlined"
grep -q 'charts/iops.png' r1/report.md || fail "report.md does not link the charts"
grep -qF '\=cmd()' r1/report.md || grep -qF '=cmd()' r1/report.md || fail "report.md lacks the job"

# Overwrite our own folder; refuse someone else's
"$FIOSCOPE" report -q --label-from=job -o r1 "$S/g_json_nogroup.json" hostile.json > /dev/null || fail "cannot overwrite own report"
mkdir foreign && echo keep > foreign/notes.txt
"$FIOSCOPE" report -q -o foreign "$S/g_json_nogroup.json" > /dev/null 2> err.txt
rc=$?
[ $rc = 1 ] || fail "foreign folder: exit $rc, want 1"
grep -q "not written by fioscope" err.txt || fail "foreign folder: message '$(cat err.txt)'"
[ "$(ls -A foreign)" = notes.txt ] || fail "foreign folder was written to"

# Same input, same bytes
"$FIOSCOPE" report -q --label-from=job -o r2 "$S/g_json_nogroup.json" hostile.json > /dev/null || fail "second report"
for f in index.html report.md report.xlsx charts/iops.png charts/iops.svg charts/clat-percentiles.png \
         charts/latency-buckets.png; do
  cmp -s "r1/$f" "r2/$f" || fail "$f differs between two runs"
done

# chart: any metric, any size
"$FIOSCOPE" chart -q --x jobname --y write.clat_ns.p99 --size 800x450 -o c.png "$S/g_json_nogroup.json" > /dev/null \
  || fail "chart exit $?"
python3 -c "import struct,sys; d=open('c.png','rb').read(); sys.exit(struct.unpack('>II', d[16:24]) != (800, 450))" \
  || fail "chart not 800x450"
"$FIOSCOPE" chart --y no.such.metric x.json 2> /dev/null; [ $? = 2 ] || fail "unknown metric is not a usage error"
"$FIOSCOPE" chart -q --type pctl -o p.png "$S/g_json_nogroup.json" > out.txt 2> err.txt || fail "pctl chart"
[ ! -s out.txt ] && [ ! -s err.txt ] || fail "chart -q is not quiet: $(cat out.txt err.txt)"
"$FIOSCOPE" chart --type pctl -o p2.png "$S/g_json_nogroup.json" > out.txt 2> err.txt || fail "pctl chart 2"
[ ! -s out.txt ] && grep -qx "fioscope: chart written to p2.png" err.txt || fail "chart status line: $(cat out.txt err.txt)"
# An input of no run: its notes a line each in both reports (joined, they read as one
# sentence), the first after its status, the others in a list of their own
for _ in 1 2 3; do echo; cat "$FSC_SOURCE_DIR/tests/tolerance/cases/grep_bare_fragments.txt"; done > frags.txt
"$FIOSCOPE" report -q --fail-on=none -o r3 "$S/g_json_nogroup.json" frags.txt > /dev/null 2>&1 || fail "report with an input of no run"
python3 - r3 <<'PY' || fail "notes of an input of no run"
import re, sys
md = open(sys.argv[1] + "/report.md").read()
html = open(sys.argv[1] + "/index.html").read()
sect = md.split("## Inputs without results\n\n")[1].split("\n\n")[0].split("\n")
assert sect[0] == "- frags.txt: no-runs, line 4: fio's preamble without results", sect
assert sect[1:3] == ["  - line 10: fio's preamble without results", "  - line 16: fio's preamble without results"], sect
assert len(sect) >= 3 and all(l.startswith("  - line ") for l in sect[1:]), sect
li = re.search(r"<li><code>frags.txt</code>: no-runs, (.*?)</ul></li>", html).group(1)
assert li.startswith("line 4: fio&#39;s preamble without results<ul><li>line 10: "), li
assert li.count("<li>") == len(sect) - 1, (li, sect)
PY
# I/O priorities: a Priorities section and sheet of the jobs that have them (fio 3.33's
# "clat prio 1/0" of cmdprio_percentage and 3.20's "high prio_clat", mean and p99 each),
# and none when no job has any (r1 above)
F=$FSC_SOURCE_DIR/tests/oracle/fixtures
"$FIOSCOPE" report -q -o rp "$F/cmdprio-randrw.normal+json.txt" "$F/fio320-cmdprio-randrw.normal+json.txt" \
    "$F/psync-randread-4k.normal+json.txt" > /dev/null 2>&1 || fail "report of priorities"
grep -q 'id="family-Priorities"' r1/index.html && fail "a Priorities section without priorities"
python3 - rp <<'PY' || fail "priorities section"
import re, sys, zipfile
d = sys.argv[1]
md = open(d + "/report.md").read()
sect = md.split("## Priorities\n\n")[1].split("\n\n")[0].split("\n")
head = [c.strip() for c in sect[0].strip("|").split("|")]
assert head[:6] == ["label", "run", "read clat prio 0/0", "read clat p99 prio 0/0", "read clat prio 1/0",
                    "read clat p99 prio 1/0"], head
assert "read clat high prio" in head and "write clat p99 low prio" in head, head
rows = [[c.strip() for c in r.strip("|").split("|")] for r in sect[2:]]
assert [r[0] for r in rows] == ["cp", "x"], rows  # not the job without priorities
cp = dict(zip(head, rows[0]))
assert cp["read clat prio 1/0"] == "82.3 µs" and cp["read clat p99 prio 1/0"] == "175 µs", cp
x = dict(zip(head, rows[1]))
assert x["read clat high prio"] == "56.7 µs" and x["read clat p99 low prio"] == "272 µs", x
wb = zipfile.ZipFile(d + "/report.xlsx").read("xl/workbook.xml").decode()
assert "Priorities" in re.findall(r'<sheet name="([^"]+)"', wb), wb
PY
# No INPUT: a usage error (make demo names the samples itself)
"$FIOSCOPE" report -q -o nothing 2> err.txt; rc=$?
[ $rc = 2 ] || fail "report without INPUT: exit $rc, want 2"
grep -q "no INPUT given" err.txt || fail "report without INPUT: '$(cat err.txt)'"
[ -e nothing ] && fail "report without INPUT wrote a folder"
echo ok
