#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Parse speed of `fioscope parse --jsonl -q` on ~1 GB of real fio text: every normal
# text output of every fio era in the corpus, repeated into a tree of files and a tar
# of that tree, plus one single huge file (read in pieces). Reports MB/s of
# uncompressed text for -j 1 and -j 2, the speed-up and the peak memory (RSS), and
# the instructions per byte of one core (callgrind, on a sample) when valgrind is
# installed. Generated data is not kept unless FSC_BENCH_KEEP=1.
#
# usage: bench/parse_speed.sh [FIOSCOPE_BINARY]
# env:   FSC_BENCH_MB       size of the text to generate (default 1024)
#        FSC_BENCH_FILE_KB  size of each generated file (default 64)
#        FSC_BENCH_JOBS     thread counts to measure (default "1 2")
#        FSC_BENCH_FORMS    inputs to measure: tree, tar and/or huge (one file of all
#                           the text; default "tree tar huge")
#        FSC_BENCH_CG_MB    MB of text for the callgrind count (default 3; 0 = skip)
#        FSC_BENCH_EXCLUDE  regex: corpus documents to leave out, e.g. 'json|terse' to
#                           time only the normal-text path (default: none)
#        FSC_BENCH_DIR      where to generate (default: a fresh directory under /tmp)
#        FSC_CORPUS         the corpus (default: ../shared/corpus next to the sources)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/fioscope}
corpus=${FSC_CORPUS:-$here/../../shared/corpus}
mb=${FSC_BENCH_MB:-1024}
file_kb=${FSC_BENCH_FILE_KB:-64}
jobs_list=${FSC_BENCH_JOBS:-1 2}
forms=${FSC_BENCH_FORMS:-tree tar huge}
[ -x "$bin" ] || { echo "no fioscope binary at $bin (build first, or pass its path)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }

work=${FSC_BENCH_DIR:-$(mktemp -d /tmp/fsc_bench.XXXXXX)}
mkdir -p "$work"
[ "${FSC_BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

# The tree: files of ~file_kb KiB, each a run of whole corpus documents (all eras, in
# rotation), spread over 100 directories.
if [ ! -d "$work/tree" ]; then
    python3 - "$corpus" "$work/tree" "$mb" "$file_kb" "${FSC_BENCH_EXCLUDE:-}" <<'PY'
import glob, os, re, sys
corpus, out, mb, file_kb = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
skip = re.compile(sys.argv[5]) if sys.argv[5] else None
docs = [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(corpus, "fio-*", "*.txt")))
        if not (skip and skip.search(p))]
if not docs:
    sys.exit("no fio text found under " + corpus)
total, want, k, n = 0, mb << 20, 0, 0
while total < want:
    parts, size = [], 0
    while size < file_kb << 10:
        d = docs[k % len(docs)]
        parts.append(d)
        size += len(d)
        k += 1
    d = os.path.join(out, "%02d" % (n % 100))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "run%06d.txt" % n), "wb") as f:
        f.write(b"".join(parts))
    total += size
    n += 1
print("generated %d files, %.1f MB of fio text from %d corpus documents" % (n, total / 1e6, len(docs)))
PY
fi
text_bytes=$(du -sb --apparent-size "$work/tree" | cut -f1)
case " $forms " in *" tar "*) [ -f "$work/tree.tar" ] || tar cf "$work/tree.tar" -C "$work" tree ;; esac
case " $forms " in *" huge "*) [ -f "$work/huge.txt" ] || find "$work/tree" -type f | sort | xargs cat > "$work/huge.txt" ;; esac

measure() { # form jobs -> prints one result line
    local form=$1 j=$2 input=$work/tree
    [ "$form" = tar ] && input=$work/tree.tar
    [ "$form" = huge ] && input=$work/huge.txt
    cat "$input" > /dev/null 2>&1 || find "$input" -type f -exec cat {} + > /dev/null
    /usr/bin/time -v "$bin" parse --jsonl -q --fail-on=none -j "$j" "$input" \
        > "$work/out.jsonl" 2> "$work/time.txt" || { cat "$work/time.txt" >&2; exit 1; }
    local secs rss cpu
    cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/time.txt")
    secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
        for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$work/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    local runs inputs
    runs=$(grep -vc '^{"input"' "$work/out.jsonl" || true)
    inputs=$(grep -c '^{"input"' "$work/out.jsonl" || true)
    awk -v f="$form" -v j="$j" -v b="$text_bytes" -v s="$secs" -v r="$rss" -v runs="$runs" \
        -v inputs="$inputs" -v cpu="$cpu" 'BEGIN { if (s <= 0) s = 0.01;
        printf "%-5s -j %-2s %8.1f MB/s  %6.2f s (cpu %6.2f s)  peak %6.1f MB  %7d inputs  %8d runs\n",
               f, j, b / 1e6 / s, s, cpu, r / 1024, inputs, runs }'
}

echo "fioscope parse --jsonl -q: $(awk -v b="$text_bytes" 'BEGIN{printf "%.1f", b/1e6}') MB of fio text ($bin)"
for form in $forms; do
    base=
    for j in $jobs_list; do
        line=$(measure "$form" "$j")
        rate=$(awk '{print $4}' <<< "$line")
        [ -n "$base" ] || base=$rate
        echo "$line  speed-up $(awk -v a="$rate" -v b="$base" 'BEGIN{printf "%.2fx", a/b}')"
    done
done
# One core, independent of the machine's load: instructions per byte of text under
# callgrind (the start-up, ~33 M instructions, is measured on an empty file and
# left out). 500 MB/s on one core of ~3-5e9 instructions/s needs about 10.
cg_mb=${FSC_BENCH_CG_MB:-3}
if [ "$cg_mb" != 0 ] && command -v valgrind > /dev/null; then
    { find "$work/tree" -type f | sort | xargs cat 2> /dev/null | head -c $((cg_mb << 20)) > "$work/cg.txt"; } || true
    echo x > "$work/cg0.txt"
    count() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" parse --jsonl -q --fail-on=none \
            -j 1 "$1" 2>&1 > /dev/null | awk '/Collected|refs:/ {gsub(",", "", $NF); print $NF}' | tail -1
    }
    ins=$(count "$work/cg.txt")
    ins0=$(count "$work/cg0.txt")
    awk -v i="$ins" -v z="$ins0" -v b="$(stat -c %s "$work/cg.txt")" 'BEGIN {
        printf "callgrind -j 1 %6.1f instructions/byte of text (%d MB sample; 500 MB/s needs about 10)\n",
               (i - z) / b, b / 1048576 }'
fi
echo "targets: -j 1 >= 500 MB/s, -j 2 >= 1.8x of -j 1, peak < 64 MB"
echo "(wall-clock rates; on a busy machine compare the cpu seconds too: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
