#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reading fio log files: `fioscope parse --jsonl -q` on a per-I/O completion latency
# log of fio 3.33's layout ("time, value, dir, bs, prio", 2M lines by default), and on
# one four times as long, to show that memory stays flat. Reports wall MB/s, CPU
# seconds and MB per CPU second (median of FSC_BENCH_ROUNDS runs), peak RSS, and the
# instructions per byte of one core under callgrind (on a 200k-line sample, start-up
# measured on a one-line log and left out). Generated data is not kept.
#
# usage: bench/log_speed.sh [FIOSCOPE_BINARY]
# env:   FSC_BENCH_LINES   lines of the log (default 2000000)
#        FSC_BENCH_ROUNDS  runs per measurement (default 5)
#        FSC_BENCH_JOBS    thread counts (default "1 2")
#        FSC_BENCH_OUT     where the JSON goes (default /dev/null; a file on disk adds the
#                          cost of writing it)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/fioscope}
lines=${FSC_BENCH_LINES:-2000000}
rounds=${FSC_BENCH_ROUNDS:-5}
jobs_list=${FSC_BENCH_JOBS:-1 2}
out=${FSC_BENCH_OUT:-/dev/null}
[ -x "$bin" ] || { echo "no fioscope binary at $bin" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }
work=$(mktemp -d /tmp/fsc_logbench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# a log like fio 3.33 writes for every I/O of a 70/30 random read/write job: times in
# ms, latencies in ns (log-normal around 60 us), block size, priority
gen() { # lines file
    awk -v n="$1" 'BEGIN { srand(1); t = 0;
        for (i = 0; i < n; i++) {
            if (rand() < 0.3) t++;
            u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12;
            z = sqrt(-2 * log(u1)) * cos(6.283185307 * u2);
            printf "%d, %d, %d, 4096, 0\n", t, int(exp(11 + 0.6 * z)), rand() < 0.3 }
    }' > "$2"
}
gen "$lines" "$work/big_clat.1.log"
gen $((lines * 4)) "$work/huge_clat.1.log"
gen 200000 "$work/cg_clat.1.log"
echo "0, 1, 0, 4096, 0" > "$work/one_clat.1.log"

measure() { # file jobs -> "wall cpu rss": medians of wall and cpu, the largest rss
    local f=$1 j=$2
    : > "$work/runs"
    for r in $(seq "$rounds"); do
        cat "$f" > /dev/null
        /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$bin" parse --jsonl -q -j "$j" "$f" > "$out"
        awk '{print $1, $2 + $3, $4}' "$work/t" >> "$work/runs"
    done
    local k=$(((rounds + 1) / 2))
    echo "$(cut -d' ' -f1 "$work/runs" | sort -g | sed -n "${k}p")" \
         "$(cut -d' ' -f2 "$work/runs" | sort -g | sed -n "${k}p")" \
         "$(cut -d' ' -f3 "$work/runs" | sort -g | tail -1)"
}

echo "fioscope parse --jsonl -q on fio 3.33 per-I/O logs ($bin), median of $rounds runs"
for f in big_clat.1.log huge_clat.1.log; do
    bytes=$(stat -c %s "$work/$f")
    for j in $jobs_list; do
        read -r wall cpu rss <<< "$(measure "$work/$f" "$j")"
        awk -v f="$f" -v j="$j" -v b="$bytes" -v w="$wall" -v c="$cpu" -v r="$rss" \
            -v l="$(wc -l < "$work/$f")" 'BEGIN { if (w <= 0) w = 0.01; if (c <= 0) c = 0.01;
            printf "%-16s %8d lines %6.1f MB  -j %s  %6.1f MB/s wall  %5.2f s  cpu %5.2f s  %6.1f MB per cpu s  peak %5.1f MB\n",
                   f, l, b / 1e6, j, b / 1e6 / w, w, c, b / 1e6 / c, r / 1024 }'
    done
done
if command -v valgrind > /dev/null; then
    count() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" parse --jsonl -q -j 1 "$1" 2>&1 \
            > /dev/null | awk '/Collected|refs:/ {gsub(",", "", $NF); print $NF}' | tail -1
    }
    ins=$(count "$work/cg_clat.1.log")
    ins0=$(count "$work/one_clat.1.log")
    awk -v i="$ins" -v z="$ins0" -v b="$(stat -c %s "$work/cg_clat.1.log")" 'BEGIN {
        printf "callgrind -j 1: %.1f instructions/byte of log (200k lines, %.1f MB)\n", (i - z) / b, b / 1e6 }'
fi
echo "target: >= 200 MB/s, peak memory the same for both sizes"
echo "($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
