#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Parse speed of `fioscope parse --jsonl -o /dev/null` on generated inputs made of
# real corpus material:
#   f333   one file of fio 3.33 normal text (FSC_BENCH_MB, default 200 MB)
#   f2x    fio 2.0-2.21 normal text (FSC_BENCH_SIDE_MB, default 100 MB)
#   json   fio JSON and json+ documents, all versions, concatenated (side size)
#   terse  terse records of every version (side size)
#   tree   fio 3.33 documents as ~64 KiB files in 100 directories (side size), the
#          numbers of each copy varied so that archives compress as real ones do
#   tgz    that tree as a .tar.gz      tzst   ... as a .tar.zst
#   zip    that tree as a .zip (deflate, level 6: what zip and GitHub make)
#   tbig   the f333 text as the one member of a .tar.gz (gzip -1): a member longer
#          than a file read whole, read in pieces as it is inflated (not in the
#          default inputs: it needs f333)
#   mid    one file of fio 3.33 text below the huge-file size of 24 MiB
#          (FSC_BENCH_MID_MB, default 20 MB): judged plain fio output part by part,
#          then cut in pieces
#   midjson fio JSON of that size, judged and cut the same way
#   midjsonl fioscope's own --jsonl of mid.txt, that size in whole lines: JSON Lines
#          read again, not plain fio output, in pieces from json_piece_min (8 MiB)
#   midhead mid.txt with a heading line above each run ("Test 12: ...", as a shell
#          loop over jobs prints): fio's text with plain lines of text among it, in
#          pieces from plain_min with its headings handed on (before: read whole)
#   perfile the first 200 files of the tree, each parsed by a process of its own (a
#          shell loop over logs): what start-up costs, beside the parse
# For each input and each -j of FSC_BENCH_JOBS it reports wall seconds, CPU seconds
# (user + sys), MB/s of text on the wall clock and per CPU second, and peak RSS; the
# runs alternate A B A B (FSC_BENCH_ROUNDS rounds, medians reported), so that a
# shared machine's load falls on both sides. Then the instructions per byte of one
# core (callgrind, on a FSC_BENCH_CG_MB slice, start-up subtracted), and for the
# archives how long decompression alone takes. Sizes are MB of uncompressed text.
#
# usage: bench/parse_speed.sh [FIOSCOPE_BINARY]
# env:   FSC_BENCH_MB, FSC_BENCH_SIDE_MB   sizes (see above)
#        FSC_BENCH_INPUTS  which inputs (default "f333 f2x json terse tree tgz tzst zip mid
#                          midjson perfile")
#        FSC_BENCH_JOBS    thread counts (default "1 2"; 0: no -j, the program's default,
#                          which parses a few small files without worker threads)
#        FSC_BENCH_ROUNDS  rounds of A B A B (default 2)
#        FSC_BENCH_CG_MB   MB for callgrind (default 3; 0 = skip)
#        FSC_BENCH_BASE    an older binary: the inputs of FSC_BENCH_AB (default f333)
#                          are then also run A B A B against it at -j 1 (CPU-time
#                          ratio and an exact Mann-Whitney p-value; wall too)
#        FSC_BENCH_AB_JOBS the -j of that comparison (default 1; e.g. "1 2")
#        FSC_BENCH_DIR     where to generate (default a fresh /tmp directory;
#                          FSC_BENCH_KEEP=1 keeps it)
#        FSC_CORPUS        the corpus (default ../shared/corpus next to the sources)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(realpath "${1:-$here/../build/fioscope}")
corpus=${FSC_CORPUS:-$here/../../shared/corpus}
mb=${FSC_BENCH_MB:-200}
side=${FSC_BENCH_SIDE_MB:-100}
inputs=${FSC_BENCH_INPUTS:-f333 f2x json terse tree tgz tzst zip mid midjson midhead perfile}
mid=${FSC_BENCH_MID_MB:-20}
jobs_list=${FSC_BENCH_JOBS:-1 2}
rounds=${FSC_BENCH_ROUNDS:-2}
py=/usr/bin/python3
[ -x "$bin" ] || { echo "no fioscope binary at $bin (build first, or pass its path)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }
work=${FSC_BENCH_DIR:-$(mktemp -d /tmp/fsc_bench.XXXXXX)}
mkdir -p "$work"
[ "${FSC_BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

# ---- inputs: corpus documents repeated in rotation up to the size ----
gen() { # name size_mb glob... (documents matching "/g_" are left out of text inputs)
    local name=$1 size=$2
    shift 2
    [ -e "$work/$name" ] && return
    "$py" - "$work/$name" "$size" "$@" <<'PY'
import glob, sys
out, size, pats = sys.argv[1], int(sys.argv[2]) * 1000000, sys.argv[3:]
files = sorted(p for pat in pats for p in glob.glob(pat))
text = not out.endswith((".json", ".terse"))
docs = [open(p, "rb").read() for p in files if not (text and "/g_" in p)]
if not docs:
    sys.exit("no corpus documents for " + out)
with open(out, "wb") as f:
    total = k = 0
    while total < size:
        d = docs[k % len(docs)]
        if not d.endswith(b"\n"):
            d += b"\n"
        f.write(d)
        total += len(d)
        k += 1
PY
}
make_tree() { # the 3.33 documents as files of ~64 KiB, each copy's numbers varied
    [ -d "$work/tree" ] && return
    "$py" - "$work/tree" "$side" "$corpus"/fio-3.33/*.txt <<'PY'
import os, random, re, sys
# Whole documents only (a file never starts inside a run), and in every copy the last
# digit of each number of 3+ digits drawn afresh: repeated corpus text compresses far
# better than real archives (zstd found 1200:1 and --max-ratio stopped the read).
out, size = sys.argv[1], int(sys.argv[2]) * 1000000
docs = [open(p, "rb").read() for p in sorted(sys.argv[3:]) if "/g_" not in p]
num = re.compile(rb"(?<=[=\[ ,:])(\d{2,})(\d)(?=[,\]\s)])")
rng = random.Random(16)
total = k = n = 0
while total < size:
    chunk = []
    while sum(map(len, chunk)) < 65536:
        d = num.sub(lambda m: m.group(1) + b"%d" % rng.randrange(10), docs[k % len(docs)])
        chunk.append(d if d.endswith(b"\n") else d + b"\n")
        k += 1
    d = os.path.join(out, "%02d" % (n % 100))
    os.makedirs(d, exist_ok=True)
    data = b"".join(chunk)
    open(os.path.join(d, "run%06d.txt" % n), "wb").write(data)
    total, n = total + len(data), n + 1
PY
}
for input in $inputs; do
    case $input in
    f333) gen f333.txt "$mb" "$corpus/fio-3.33/*.txt" ;;
    f2x) gen f2x.txt "$side" "$corpus/fio-2.0.15/*.txt" "$corpus/fio-2.1.10/*.txt" "$corpus/fio-2.15/*.txt" "$corpus/fio-2.21/*.txt" ;;
    json) gen all.json "$side" "$corpus/fio-*/*.json" ;;
    terse) gen all.terse "$side" "$corpus/fio-*/*.terse" ;;
    tree) make_tree ;;
    tgz) make_tree; [ -e "$work/tree.tar.gz" ] || tar cf - -C "$work" tree | gzip -6 > "$work/tree.tar.gz" ;;
    tzst) make_tree; [ -e "$work/tree.tar.zst" ] || tar cf - -C "$work" tree | zstd -q -3 -o "$work/tree.tar.zst" ;;
    zip) make_tree; [ -e "$work/tree.zip" ] || python3 - "$work" <<'PY'
import os, sys, zipfile
work = sys.argv[1]
with zipfile.ZipFile(os.path.join(work, "tree.zip"), "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
    for root, dirs, files in os.walk(os.path.join(work, "tree")):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            z.write(p, os.path.relpath(p, work))
PY
        ;;
    mid) gen mid.txt "$mid" "$corpus/fio-3.33/*.txt" ;;
    tbig) gen f333.txt "$mb" "$corpus/fio-3.33/*.txt"
        [ -e "$work/big.tar.gz" ] || tar cf - -C "$work" f333.txt | gzip -1 > "$work/big.tar.gz" ;;
    midjson) gen mid.json "$mid" "$corpus/fio-*/*.json" ;;
    midjsonl) gen mid.txt "$mid" "$corpus/fio-3.33/*.txt"
        [ -e "$work/mid.jsonl" ] || { "$bin" parse --jsonl -q -o "$work/mid.jsonl.all" "$work/mid.txt" &&
            "$py" -c 'import sys; d = open(sys.argv[1], "rb").read(int(sys.argv[3]) * 1000000)
open(sys.argv[2], "wb").write(d[:d.rindex(b"\n") + 1])' "$work/mid.jsonl.all" "$work/mid.jsonl" "$mid" &&
            rm -f "$work/mid.jsonl.all"; } ;;
    midhead) gen mid.txt "$mid" "$corpus/fio-3.33/*.txt"
        [ -e "$work/midhead.txt" ] || "$py" -c 'import re, sys
lines, out, n, defs = open(sys.argv[1]).read().split("\n"), [], 0, False
for l in lines:
    jobdef = re.match(r"\S+: \(g=\d+\)", l) is not None
    if jobdef and not defs: # the first job definition of a run
        n += 1
        out += ["", "Test %d: the next job file" % n, ""]
    out.append(l)
    defs = jobdef or (defs and l == "...")
open(sys.argv[2], "w").write("\n".join(out))' "$work/mid.txt" "$work/midhead.txt" ;;
    perfile) # awk reads all of it: head could end sort by SIGPIPE, and pipefail the script
        make_tree; find "$work/tree/" -type f | sort | awk 'NR <= 200' > "$work/perfile.list" ;;
    *) echo "unknown input $input" >&2; exit 2 ;;
    esac
done
path_of() {
    case $1 in
    f333) echo "$work/f333.txt" ;; f2x) echo "$work/f2x.txt" ;; json) echo "$work/all.json" ;;
    terse) echo "$work/all.terse" ;; tree) echo "$work/tree" ;; tgz) echo "$work/tree.tar.gz" ;;
    tzst) echo "$work/tree.tar.zst" ;; zip) echo "$work/tree.zip" ;; mid) echo "$work/mid.txt" ;; midjson) echo "$work/mid.json" ;;
    midjsonl) echo "$work/mid.jsonl" ;;
    midhead) echo "$work/midhead.txt" ;;
    tbig) echo "$work/big.tar.gz" ;;
    perfile) echo "$work/perfile.list" ;;
    esac
}
text_bytes() { # uncompressed bytes of an input
    case $1 in
    tree | tgz | tzst | zip) du -sb --apparent-size "$work/tree" | cut -f1 ;;
    tbig) stat -c %s "$work/f333.txt" ;;
    perfile) xargs -a "$work/perfile.list" stat -c %s | awk '{s += $1} END {print s}' ;;
    *) stat -c %s "$(path_of "$1")" ;;
    esac
}

# ---- one timed run: "wall cpu rss_kb" ----
timed() { # binary jobs path (jobs 0: no -j, the program's default)
    local jopt=(-j "$2")
    [ "$2" = 0 ] && jopt=()
    cat "$3" > /dev/null 2>&1 || find "$3" -type f -exec cat {} + > /dev/null
    if [[ $3 == *.list ]]; then # one process per listed file; time counts them all
        xargs -a "$3" cat > /dev/null
        /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" xargs -a "$3" -n 1 "$1" parse --jsonl -q \
            --fail-on=none "${jopt[@]}" -o /dev/null 2> "$work/err.txt" || { cat "$work/err.txt" >&2; exit 1; }
        awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$work/time.txt"
        return
    fi
    /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$1" parse --jsonl -q --fail-on=none "${jopt[@]}" "$3" \
        -o /dev/null 2> "$work/err.txt" || { cat "$work/err.txt" >&2; exit 1; }
    awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$work/time.txt"
}

echo "fioscope parse --jsonl -o /dev/null ($bin)"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the start; A B A B over -j: $jobs_list, $rounds rounds"
printf '%-6s %7s %3s %9s %9s %10s %11s %9s\n' input MB -j 'wall s' 'cpu s' 'MB/s wall' 'MB/s /cpu-s' 'peak MB'
for input in $inputs; do
    path=$(path_of "$input")
    bytes=$(text_bytes "$input")
    : > "$work/runs.txt"
    for ((r = 0; r < rounds; r++)); do
        for j in $jobs_list; do
            echo "$j $(timed "$bin" "$j" "$path")" >> "$work/runs.txt"
        done
    done
    "$py" - "$work/runs.txt" "$input" "$bytes" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
name, mb = sys.argv[2], int(sys.argv[3]) / 1e6
by = {}
for j, wall, cpu, rss in rows:
    by.setdefault(j, []).append((float(wall), float(cpu), int(rss)))
base = None
for j, v in by.items():
    wall = statistics.median(x[0] for x in v)
    cpu = statistics.median(x[1] for x in v)
    rss = max(x[2] for x in v) / 1024
    rate = mb / max(wall, 0.01)
    base = base or rate
    print("%-6s %7.1f %3s %9.2f %9.2f %10.1f %11.1f %9.1f  speed-up %.2fx" %
          (name, mb, j, wall, cpu, rate, mb / max(cpu, 0.01), rss, rate / base))
PY
done

# ---- an older binary against this one, A B A B ----
for input in ${FSC_BENCH_BASE:+${FSC_BENCH_AB:-f333}}; do
    path=$(path_of "$input")
    [ -e "$path" ] || continue
    for j in ${FSC_BENCH_AB_JOBS:-1}; do
        : > "$work/ab.txt"
        for ((r = 0; r < rounds + 1; r++)); do
            echo "A $(timed "$FSC_BENCH_BASE" "$j" "$path")" >> "$work/ab.txt"
            echo "B $(timed "$bin" "$j" "$path")" >> "$work/ab.txt"
        done
        "$py" - "$work/ab.txt" "$input" "$j" <<'PY'
import itertools, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
def u(x, y):
    return sum((xi > yi) + 0.5 * (xi == yi) for xi in x for yi in y)
def mann_whitney(a, b):
    # exact two-sided: every split of the pooled times
    obs, pool = u(a, b), a + b
    us = [u([pool[i] for i in c], [pool[i] for i in range(len(pool)) if i not in c])
          for c in itertools.combinations(range(len(pool)), len(a))]
    mid = len(a) * len(b) / 2
    return sum(abs(x - mid) >= abs(obs - mid) for x in us) / len(us)
for col, what in ((2, "CPU s"), (1, "wall s")):
    a = [float(r[col]) for r in rows if r[0] == "A"]
    b = [float(r[col]) for r in rows if r[0] == "B"]
    print("%s: base (A) vs this (B), -j %s, %s: A %s  B %s  ratio A/B %.2f  p=%.3f (n=%d+%d)" %
          (sys.argv[2], sys.argv[3], what, a, b, statistics.median(a) / statistics.median(b),
           mann_whitney(a, b), len(a), len(b)))
PY
    done
done

# ---- decompression alone ----
for input in $inputs; do
    case $input in
    tgz) t=$( { /usr/bin/time -f '%e %U %S' gzip -dc "$work/tree.tar.gz" > /dev/null; } 2>&1 | tail -1)
         # fioscope decompresses gzip with ISA-L where libisal is there: its igzip too
         if command -v igzip > /dev/null; then
             ti=$( { /usr/bin/time -f '%e %U %S' igzip -dc "$work/tree.tar.gz" > /dev/null; } 2>&1 | tail -1)
             awk -v b="$(text_bytes tgz)" '{printf "decompression alone (tgz, igzip of ISA-L): %.2f s wall, %.2f s cpu, %.1f MB/s\n", $1, $2 + $3, b / 1e6 / ($1 > 0 ? $1 : 0.01)}' <<< "$ti"
         fi ;;
    tzst) t=$( { /usr/bin/time -f '%e %U %S' zstd -dcq "$work/tree.tar.zst" > /dev/null; } 2>&1 | tail -1) ;;
    tbig) t=$( { /usr/bin/time -f '%e %U %S' gzip -dc "$work/big.tar.gz" > /dev/null; } 2>&1 | tail -1)
          if command -v igzip > /dev/null; then
              ti=$( { /usr/bin/time -f '%e %U %S' igzip -dc "$work/big.tar.gz" > /dev/null; } 2>&1 | tail -1)
              awk -v b="$(text_bytes tbig)" '{printf "decompression alone (tbig, igzip of ISA-L): %.2f s wall, %.2f s cpu, %.1f MB/s\n", $1, $2 + $3, b / 1e6 / ($1 > 0 ? $1 : 0.01)}' <<< "$ti"
          fi ;;
    zip) command -v unzip > /dev/null || continue # Info-ZIP's unzip: zlib's inflate
         t=$( { /usr/bin/time -f '%e %U %S' unzip -p "$work/tree.zip" > /dev/null; } 2>&1 | tail -1) ;;
    *) continue ;;
    esac
    awk -v n="$input" -v b="$(text_bytes "$input")" '{printf "decompression alone (%s): %.2f s wall, %.2f s cpu, %.1f MB/s\n", n, $1, $2 + $3, b / 1e6 / ($1 > 0 ? $1 : 0.01)}' <<< "$t"
done

# ---- instructions per byte of one core (callgrind) ----
cg_mb=${FSC_BENCH_CG_MB:-3}
if [ "$cg_mb" != 0 ] && command -v valgrind > /dev/null; then
    count() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" parse --jsonl -q --fail-on=none -j 1 "$1" \
            -o /dev/null 2>&1 | awk '/Collected|refs:/ {gsub(",", "", $NF); print $NF}' | tail -1
    }
    echo x > "$work/cg0.txt"
    ins0=$(count "$work/cg0.txt")
    awk -v z="$ins0" 'BEGIN { printf "callgrind start  %6.1f M instructions (a process parsing a one-line file)\n", z / 1e6 }'
    for input in $inputs; do
        case $input in tgz | tzst | zip | tbig | mid | midjson | midjsonl | midhead | perfile) continue ;; esac # the tree's text, decompression aside; mid: f333 and json whole
        case $input in
        tree) { find "$work/tree" -type f | sort | xargs cat 2> /dev/null || true; } | head -c $((cg_mb << 20)) > "$work/cg.in" ;; # head ends cat early
        *) head -c $((cg_mb << 20)) "$(path_of "$input")" > "$work/cg.in" ;;
        esac
        ins=$(count "$work/cg.in")
        awk -v i="$ins" -v z="$ins0" -v b="$(stat -c %s "$work/cg.in")" -v n="$input" 'BEGIN {
            printf "callgrind %-6s %6.1f instructions/byte (%.1f MB slice, start-up of %.0f M left out)\n", n, (i - z) / b, b / 1e6, z / 1e6 }'
    done
fi
echo "targets: f333 >= 500 MB/s per core, -j 2 >= 1.8x, peak <= 64 MB; f2x and json >= 250 MB/s per core"
echo "(load at the end: $(cut -d' ' -f1-3 /proc/loadavg); on a busy machine trust CPU seconds and instructions/byte)"
