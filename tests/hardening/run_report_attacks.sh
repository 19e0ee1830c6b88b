#!/bin/bash
# Attacks on `report -o DIR` and its files (issue #18: H3, L5, M8, L4). Each case
# failed before the fix: planted symlinks in a folder that carries the marker were
# followed, concurrent reports shared one temporary name, the umask was ignored,
# -o onto a symlink wrote in place, job names broke the workbook's XML or formed
# Markdown links and images.
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}"
T=$(mktemp -d)
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
S=$FSC_SOURCE_DIR/samples/k_null_highiops.txt      # one job: a cheap report
J=$FSC_SOURCE_DIR/samples/g_json_nogroup.json      # four jobs, JSON: names to replace
PY=/usr/bin/python3
cd "$T" || exit 1

# A report folder someone else prepared: the marker, and links to our files.
mkdir victim && echo "precious" > victim/keep.txt && echo "png" > victim/a.png

# --- H3: charts/ is a symlink to another folder: refused, nothing there deleted ---
mkdir r && echo x > r/.fioscope-report && ln -s "$T/victim" r/charts
"$FIOSCOPE" report -q -o r "$S" > /dev/null 2> err.txt
rc=$?
[ $rc = 1 ] || fail "H3 charts symlink: exit $rc, want 1"
grep -q "charts: is not a directory" err.txt || fail "H3 charts symlink: message '$(cat err.txt)'"
[ -f victim/a.png ] || fail "H3: a PNG behind the charts symlink was deleted"
[ -e r/index.html ] && fail "H3: report written into a folder it refused"

# --- H3: every name the report writes is a planted symlink to a victim file ---
rm -rf r && mkdir -p r/charts && echo x > r/.fioscope-report
for f in index.html report.md report.xlsx .report.xlsx.tmp .tmp.XXXXXX charts/iops.png charts/iops.svg \
         charts/clat-percentiles.png; do
  ln -s "$T/victim/keep.txt" "r/$f"
done
"$FIOSCOPE" report -q -o r "$S" > /dev/null || fail "H3 planted links: exit $?"
[ "$(cat victim/keep.txt)" = precious ] || fail "H3: a planted symlink made the report overwrite a file"
for f in index.html report.md report.xlsx charts/iops.png; do
  [ -f "r/$f" ] && [ ! -L "r/$f" ] || fail "H3: r/$f is not a regular file of the report"
done
[ -L r/charts/clat-percentiles.png ] && fail "H3: an old chart link was left in charts/"

# --- L5: files honour the umask ---
for mask in 027 077; do
  rm -rf u && (umask $mask && "$FIOSCOPE" report -q -o u "$S" > /dev/null) || fail "umask $mask: exit"
  want=$(printf '%o' $(( 0666 & ~0$mask )))
  for f in u/index.html u/report.xlsx u/charts/iops.png u/charts/iops.svg; do
    got=$(stat -c %a "$f")
    [ "$got" = "$want" ] || fail "L5 umask $mask: $f has mode $got, want $want"
  done
done

# --- L5: 24 reports at once into one folder all succeed, and leave whole files (12
# under ASan, which is slower: the race shows either way) ---
N=24
case "${FSC_BUILD_DIR:-}" in *asan*) N=12 ;; esac
rm -rf c && mkdir c
pids=()
for i in $(seq $N); do
  "$FIOSCOPE" report -q -o c "$S" > /dev/null 2> "c.$i.err" &
  pids+=($!)
done
bad=0
for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
[ $bad = 0 ] || fail "L5: $bad of $N concurrent reports failed: $(cat c.*.err | head -3)"
ls -A c | grep -q '\.tmp$' && fail "L5: temporary files left behind: $(ls -A c)"
$PY -c "import zipfile,sys; zipfile.ZipFile('c/report.xlsx').testzip()" || fail "L5: report.xlsx is not whole"
grep -q '</html>' c/index.html || fail "L5: index.html is not whole"

# --- L5: chart -o onto a symlink replaces the file it names, atomically, keeps the link ---
echo old > target.png && ln -s target.png link.png
ino=$(stat -c %i target.png)
"$FIOSCOPE" chart -q --y iops -o link.png "$S" || fail "chart -o link: exit $?"
[ -L link.png ] || fail "L5: the symlink was replaced"
head -c 8 target.png | od -c | grep -q 'P   N   G' || fail "L5: the link's target is not the chart"
[ "$(stat -c %i target.png)" != "$ino" ] || fail "L5: the target was written in place, not replaced"

# --- M8 and L4: job names with controls, non-characters, _xHHHH_, Markdown links ---
$PY - "$J" hostile.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = ["\x1b[31mred\x1b[0m job", "bad \ufffe and \uffff", "_x0041_", "![x](https://example.com/i.png)",
         "[x](javascript:alert(1))"]
for j, n in zip(d["jobs"], names[:len(d["jobs"])]):
    j["jobname"] = n
extra = dict(d["jobs"][0]); extra["jobname"] = names[4]
d["jobs"].append(extra)
rtl = dict(d["jobs"][1]); rtl["jobname"] = "קריאה \"q\" <b>&"   # right-to-left, quotes, markup
d["jobs"].append(rtl)
json.dump(d, open(sys.argv[2], "w"), ensure_ascii=False)
PY
"$FIOSCOPE" report -q -o h hostile.json > /dev/null || fail "hostile names: exit $?"
$PY - h/report.xlsx <<'PY' || fail "M8: report.xlsx"
import re, sys, zipfile
import xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    if n.endswith(".xml") or n.endswith(".rels"):
        try:
            ET.fromstring(z.read(n))
        except ET.ParseError as e:
            print("FAIL: %s is not well-formed XML: %s" % (n, e)); sys.exit(1)
def unescape(s):  # OOXML ST_Xstring
    return re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), s)
ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
shared = ["".join(t.text or "" for t in si.iter("{%s}t" % ns["m"]))
          for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", ns)]
got = set(unescape(s) for s in shared)
for want in ["\x1b[31mred\x1b[0m job", "bad \ufffe and \uffff", "_x0041_", "קריאה \"q\" <b>&"]:
    if want not in got:
        print("FAIL: job name %r does not read back from the workbook (got %r)" % (want, sorted(got)[:12]))
        sys.exit(1)
PY
# the Markdown page forms no link and no image from a job name
if grep -E '!\[x\]\(https|\[x\]\(javascript' h/report.md > /dev/null; then
  fail "L4: a job name forms a link or image in report.md: $(grep -E '!\[x\]\(https|\[x\]\(javascript' h/report.md | head -2)"
fi
grep -q 'javascript' h/report.md || fail "L4: the job name is missing from report.md"
# the page and every chart are well-formed, no raw control character anywhere
$PY - h <<'PY' || fail "M8: SVG"
import glob, sys
import xml.etree.ElementTree as ET
found = False
for f in glob.glob(sys.argv[1] + "/charts/*.svg"):
    root = ET.parse(f).getroot()
    found |= any("קריאה \"q\" <b>&" in (t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text"))
if not found:
    print("FAIL: the right-to-left name with quotes and markup is not a chart's text"); sys.exit(1)
PY
grep -q 'קריאה &quot;q&quot; &lt;b&gt;&amp;' h/index.html || fail "the right-to-left name is not escaped in the page"
echo ok
