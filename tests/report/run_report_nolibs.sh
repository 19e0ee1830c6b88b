#!/bin/bash
# A report on a machine without cairo (charts) or without libxlsxwriter (workbook):
# the report is still written, with every table; what needs the missing library is
# left out, the pages say where and why, stderr has one line per library naming it and
# its Debian package, and the exit status is 1 (an output could not be written).
# A chart asked for explicitly fails with that line and writes no file. Without pango
# alone, charts are drawn with cairo's simple text, with one line on stderr, exit 0.
# A library "cannot be loaded" here as in tests/cli/run_lazy_libs.sh: a file of its
# soname that is no library, found first through LD_LIBRARY_PATH.
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
IN=$FSC_SOURCE_DIR/samples/c_randrw70_libaio_4jobs_group.txt
cd "$T" || exit 1

strings -a "$FIOSCOPE" > strings.txt
soname() { grep -m1 -E "^lib$1\\.so\\.[0-9]+\$" strings.txt || fail "no soname for $1 in the program"; }
PANGO=$(soname 'pangocairo-1\.0'); CAIRO=$(soname cairo); XLSX=$(soname xlsxwriter)
mkdir nopango nocairo noboth
echo "not a library" > "nopango/$PANGO"
echo "not a library" > "nocairo/$CAIRO"
echo "not a library" > "noboth/$CAIRO"
echo "not a library" > "noboth/$XLSX"

# Links to chart files in the pages must name files that exist.
links_exist() {
    local dir=$1 f
    for f in $(grep -oE '(src|href)="charts/[^"]*"' "$dir/index.html" | sed -E 's/^[a-z]+="//; s/"$//') \
             $(grep -oE '\]\(charts/[^)]*\)' "$dir/report.md" | sed -E 's/^\]\(//; s/\)$//'); do
        [ -s "$dir/$f" ] || fail "$dir: the pages link $f, which is not there"
    done
}

# --- with every library: the reference (which charts a report of this input draws)
"$FIOSCOPE" report -q -o full "$IN" || fail "report with every library: exit $?"
titles_full=$(grep -o '<figcaption>[^·]*' full/index.html | sed 's/<figcaption>//; s/ *$//' | sort)
[ -n "$titles_full" ] || fail "the reference report has no chart"
[ -s full/report.xlsx ] || fail "the reference report has no workbook"

# --- without pango: every chart, its text drawn by cairo alone; one line says so
rc=0; LD_LIBRARY_PATH=nopango "$FIOSCOPE" report -o plain "$IN" 2> err.txt || rc=$?
[ $rc = 0 ] || fail "report without pango: exit $rc (want 0: every file is written)"
[ "$(cd full && ls charts report.xlsx index.html report.md)" = "$(cd plain && ls charts report.xlsx index.html report.md)" ] ||
    fail "report without pango has other files: $(ls plain plain/charts)"
for f in plain/charts/*.png; do
    head -c 8 "$f" | od -An -c | grep -q 'P   N   G' || fail "$f is not a PNG"
done
grep -q '<text[^>]*>[^<]' plain/charts/iops.svg || fail "the SVG without pango has no text"
[ "$(grep -c "chart labels need $PANGO, which cannot be loaded (on Debian: apt install libpangocairo-1.0-0).*cairo's simple text" err.txt)" = 1 ] ||
    fail "not one warning naming pango and its package: $(cat err.txt)"
[ "$(grep -c . err.txt)" = 2 ] || fail "stderr is more than the warning and the status line: $(cat err.txt)"
grep -q "the charts' text is drawn with cairo's simple text API" plain/index.html plain/report.md ||
    fail "the pages do not say the charts' text is plainer"
links_exist plain

# --- without cairo: tables, pages and workbook; no chart, each one named as not drawn
rc=0; LD_LIBRARY_PATH=nocairo "$FIOSCOPE" report -o rep "$IN" 2> err.txt || rc=$?
[ $rc = 1 ] || fail "report without cairo: exit $rc (want 1)"
for f in index.html report.md report.xlsx; do [ -s "rep/$f" ] || fail "report without cairo: no $f"; done
! ls rep/charts/* > /dev/null 2>&1 || fail "chart files without cairo: $(ls rep/charts)"
[ "$(grep -c "charts need $CAIRO, which cannot be loaded (on Debian: apt install libcairo2)" err.txt)" = 1 ] ||
    fail "not one warning naming cairo and its package: $(cat err.txt)"
grep -q "the report is written without charts" err.txt || fail "the warning does not say what was left out: $(cat err.txt)"
grep -q "report written to rep/index.html" err.txt || fail "no status line: $(cat err.txt)"
[ "$(grep -c . err.txt)" = 2 ] || fail "stderr is more than the warning and the status line: $(cat err.txt)"
# the tables hold the values `fioscope table` gives for the same input
"$FIOSCOPE" table -q --format md "$IN" > table.md || fail "table: exit $?"
while IFS= read -r line; do
    grep -qxF -- "$line" rep/report.md || fail "report.md lacks the table row: $line"
done < table.md
grep -q "<h2>Charts not drawn</h2>" rep/index.html || fail "index.html does not say why there are no charts"
grep -q "apt install libcairo2" rep/index.html || fail "index.html does not say what to install"
grep -q "No chart: the inputs hold no numbers" rep/index.html rep/report.md && fail "the pages blame the inputs"
! grep -q "<img" rep/index.html || fail "index.html shows an image without cairo"
titles_skipped=$(grep -oE '<strong>[^<]*:</strong> Not drawn: the chart libraries' rep/index.html |
                 sed -E 's/^<strong>//; s/:<\/strong>.*//' | sort)
[ "$titles_skipped" = "$titles_full" ] || fail "not every chart is named as not drawn: $titles_skipped / $titles_full"
[ "$(grep -c '^\*\*[^*]*:\*\* Not drawn: the chart libraries' rep/report.md)" = "$(echo "$titles_full" | wc -l)" ] ||
    fail "report.md does not name every chart left out"
grep -q 'href="report.xlsx"' rep/index.html || fail "the workbook is written but not linked"
links_exist rep

# -q silences the status lines, not the warning that explains the exit status
rc=0; LD_LIBRARY_PATH=nocairo "$FIOSCOPE" report -q -o rep "$IN" 2> err.txt || rc=$?
[ $rc = 1 ] || fail "report -q without cairo: exit $rc"
[ "$(grep -c . err.txt)" = 1 ] && grep -q "charts need $CAIRO" err.txt || fail "report -q: $(cat err.txt)"

# --- without cairo and libxlsxwriter, in the folder of a full report: its charts and
# workbook go (they would pass for this report's), the pages do not name the workbook
cp -r full both
rc=0; LD_LIBRARY_PATH=noboth "$FIOSCOPE" report -q -o both "$IN" 2> err.txt || rc=$?
[ $rc = 1 ] || fail "report without cairo and libxlsxwriter: exit $rc"
[ "$(grep -c . err.txt)" = 2 ] || fail "not one line per missing library: $(cat err.txt)"
grep -q "workbooks need $XLSX, which cannot be loaded (on Debian: apt install libxlsxwriter4)" err.txt ||
    fail "no warning naming libxlsxwriter and its package: $(cat err.txt)"
[ ! -e both/report.xlsx ] || fail "an earlier report's workbook is left in the folder"
! ls both/charts/* > /dev/null 2>&1 || fail "an earlier report's charts are left: $(ls both/charts)"
grep -q "report.xlsx" both/report.md && fail "report.md names a workbook that is not there"
grep -q 'href="report.xlsx"' both/index.html && fail "index.html links a workbook that is not there"
grep -q "<h2>Workbook not written</h2>" both/index.html || fail "index.html does not say the workbook is missing"
grep -q "Workbook not written:\*\* workbooks need $XLSX" both/report.md || fail "report.md does not say the workbook is missing"
links_exist both

# --- the same folder with every library again: all back
"$FIOSCOPE" report -q -o both "$IN" || fail "report again: exit $?"
[ -s both/report.xlsx ] && ls both/charts/*.png > /dev/null 2>&1 || fail "the full report is not back"
! grep -q "not drawn\|not written" both/index.html || fail "a full report says something is missing"
links_exist both

# --- a chart asked for: without cairo an error naming the library, no file, no crash;
# without pango the chart, and one line
for f in c.png c.svg; do
    rc=0; LD_LIBRARY_PATH=nocairo "$FIOSCOPE" chart --y read.iops "$IN" -o "$f" 2> err.txt || rc=$?
    [ $rc = 1 ] || fail "chart $f without cairo: exit $rc"
    grep -q "^fioscope: chart: charts need $CAIRO, which cannot be loaded (on Debian: apt install libcairo2)" err.txt ||
        fail "chart $f error: $(cat err.txt)"
    [ ! -e "$f" ] || fail "chart $f written without cairo"
    rc=0; LD_LIBRARY_PATH=nopango "$FIOSCOPE" chart -q --y read.iops "$IN" -o "$f" 2> err.txt || rc=$?
    [ $rc = 0 ] && [ -s "$f" ] || fail "chart $f without pango: exit $rc"
    [ "$(grep -c . err.txt)" = 1 ] && grep -q "^fioscope: chart: chart labels need $PANGO.*simple text" err.txt ||
        fail "chart $f without pango: $(cat err.txt)"
done
echo "report without libraries: ok"
