#!/usr/bin/env bash
# Charts (pango, cairo), archives (libarchive), workbooks (libxlsxwriter) and the
# engine's libraries (inih, nettle, liburing, libaio) are opened on first use, not at
# start-up (include/fioscope/dynlib.h): the program does not link
# them, a command that needs one opens it and works as before, and when one cannot be
# loaded the command says which library and what needs it, and only what needs it fails.
source "$(dirname "$0")/../input/lib.sh"   # a temporary folder, fail()
C=$FSC_CORPUS/fio-3.33
TXT=$C/a_randread_psync.txt

# --- not linked: none of them is a NEEDED entry of the program
needed=$(readelf -d "$FIOSCOPE" | awk '/NEEDED/ {print $NF}')
for lib in pango cairo archive xlsxwriter glib fontconfig inih nettle uring aio; do
    ! echo "$needed" | grep -q "$lib" || fail "the program links $lib: $needed"
done

# --- opened when needed: an archive, a chart, a report (workbook and charts)
mkdir in && cp "$TXT" in/a.txt && tar czf in.tar.gz in
"$FIOSCOPE" parse --jsonl -q in.tar.gz > a.jsonl || fail "parse of a tar.gz: exit $?"
grep -q '"member":"in/a.txt","status":"ok","runs":1' a.jsonl || fail "tar.gz member not read: $(cat a.jsonl)"
"$FIOSCOPE" chart -q --y read.iops "$TXT" -o c.png || fail "chart: exit $?"
head -c 8 c.png | od -An -c | grep -q 'P   N   G' || fail "chart is not a PNG"
"$FIOSCOPE" report -q "$TXT" -o rep || fail "report: exit $?"
[ -s rep/report.xlsx ] && [ -s rep/index.html ] || fail "report without its workbook or page"

# --- a library that cannot be loaded: a file of that soname that is no library, found
# first through LD_LIBRARY_PATH. The sonames are those the program was built with.
strings -a "$FIOSCOPE" > strings.txt
soname() { grep -m1 -E "^lib$1\\.so\\.[0-9]+\$" strings.txt || fail "no soname for $1 in the program"; }
PANGO=$(soname 'pangocairo-1\.0'); CAIRO=$(soname cairo); ARCH=$(soname archive); XLSX=$(soname xlsxwriter)
mkdir broken
for n in "$PANGO" "$CAIRO" "$ARCH" "$XLSX"; do echo "not a library" > "broken/$n"; done

rc=0; LD_LIBRARY_PATH=broken "$FIOSCOPE" chart -q --y read.iops "$TXT" -o d.png 2> err.txt || rc=$?
[ $rc = 1 ] || fail "chart without cairo: exit $rc"
grep -qF "charts need $CAIRO, which cannot be loaded" err.txt || fail "chart error: $(cat err.txt)"
[ ! -e d.png ] || fail "chart written without cairo"

# the archive fails as an input; the text beside it is read
rc=0; LD_LIBRARY_PATH=broken "$FIOSCOPE" parse --jsonl -q in.tar.gz "$TXT" > b.jsonl 2> err.txt || rc=$?
[ $rc = 1 ] || fail "parse without libarchive: exit $rc"
manifest < b.jsonl > m.txt
grep -q "^in.tar.gz|None|error|0|archives need $ARCH, which cannot be loaded" m.txt || fail "archive entry: $(cat m.txt)"
grep -q "a_randread_psync.txt|None|ok|1|None" m.txt || fail "the text beside the archive: $(cat m.txt)"

# plain text never opens any of them
LD_LIBRARY_PATH=broken "$FIOSCOPE" parse --jsonl -q "$TXT" > t.jsonl || fail "parse of text with broken libraries: exit $?"
cmp -s t.jsonl <("$FIOSCOPE" parse --jsonl -q "$TXT") || fail "text parsed differently"

# a report without libxlsxwriter is written without its workbook (tests/report/run_report_nolibs.sh);
# the library is named, and the exit status is 1
rm "broken/$PANGO" "broken/$CAIRO"
rc=0; LD_LIBRARY_PATH=broken "$FIOSCOPE" report -q "$TXT" -o rep2 2> err.txt || rc=$?
[ $rc = 1 ] || fail "report without libxlsxwriter: exit $rc"
grep -qF "workbooks need $XLSX, which cannot be loaded" err.txt || fail "report error: $(cat err.txt)"
[ -s rep2/index.html ] && [ -s rep2/charts/iops.png ] && [ ! -e rep2/report.xlsx ] || fail "report without libxlsxwriter: $(ls rep2)"
# --- the engine's: a job file needs inih, verify=md5 nettle, each ioengine its own
# library; without one, that job fails with one line naming it, before any I/O
INIH=$(soname inih); NETTLE=$(soname nettle)
mkdir eng && rm -f broken/* && echo "not a library" > "broken/$INIH" && echo "not a library" > "broken/$NETTLE"
printf '[j]\nrw=read\nsize=64k\ndirectory=%s\n' "$T/eng" > j.fio
"$FIOSCOPE" run j.fio > run.txt 2>&1 || fail "job file: exit $?: $(cat run.txt)"
grep -q "READ: bw=" run.txt || fail "job file ran no job: $(cat run.txt)"
rc=0; LD_LIBRARY_PATH=broken "$FIOSCOPE" run j.fio > /dev/null 2> err.txt || rc=$?
[ $rc != 0 ] || fail "job file without inih: exit 0"
grep -qF "job files need $INIH, which cannot be loaded" err.txt || fail "job file error: $(cat err.txt)"
rc=0; LD_LIBRARY_PATH=broken "$FIOSCOPE" run --name=v --rw=write --size=64k --verify=md5 --directory=eng \
    > /dev/null 2> err.txt || rc=$?
[ $rc != 0 ] || fail "verify=md5 without nettle: exit 0"
grep -qF "verify=md5 and verify=sha256 need $NETTLE, which cannot be loaded" err.txt || fail "verify error: $(cat err.txt)"
LD_LIBRARY_PATH=broken "$FIOSCOPE" run --name=c --rw=write --size=64k --verify=crc32c --directory=eng > /dev/null ||
    fail "verify=crc32c needs no library: exit $?"
for eng in io_uring libaio; do
    lib=$(soname "$( [ $eng = io_uring ] && echo uring || echo aio )" 2> /dev/null) || continue # not built in
    echo "not a library" > "broken/$lib"
    rc=0; LD_LIBRARY_PATH=broken "$FIOSCOPE" run --name=e --rw=read --size=64k --ioengine=$eng --directory=eng \
        > /dev/null 2> err.txt || rc=$?
    [ $rc != 0 ] || fail "ioengine=$eng without $lib: exit 0"
    grep -qF "jobs with ioengine=$eng need $lib, which cannot be loaded" err.txt || fail "$eng error: $(cat err.txt)"
done
echo "lazy libraries: ok"
