#!/usr/bin/env bash
# The analysis stage at 25k, 50k and 100k runs: time should grow linearly and the heap it
# holds per run stay constant. Generates an archive of fio 3 normal-text runs (10 systems
# as folders × 20 workloads × N repeats), then for each size:
#   - the analysis alone (rows + systems, a pivot, a comparison by system), CPU and wall
#     seconds and heap bytes, from bench/analysis_scale.c (ROUNDS times, A B A B order);
#   - the whole commands `table --pivot` and `compare --by system` (wall, CPU, max RSS);
#   - with CALLGRIND=1, instructions of the analysis at 25k and 50k (slow: minutes).
# usage: bench/analysis_scale.sh [BUILD_DIR]   (Release build recommended)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
rounds=${ROUNDS:-3}
work=${WORKDIR:-$(mktemp -d /var/tmp/fsc-analysis-bench.XXXXXX)}
mkdir -p "$work"
trap '[ -z "${KEEP:-}" ] && rm -rf "$work"' EXIT
fsc=$build/fioscope
drv=$work/analysis_scale
libs="$build/libfsc_emit.a $build/libfsc_analyze.a $build/libfsc_input.a $build/libfsc_parse.a $build/libfsc_core.a"
cc -O2 -std=c11 -D_GNU_SOURCE -I"$src/include" "$src/bench/analysis_scale.c" $libs \
    $(pkg-config --libs libpcre2-8 libcjson libarchive xlsxwriter cairo pangocairo fontconfig) -lm -lpthread \
    -o "$drv"

# one archive per size; repeats = runs / (10 systems × 20 workloads)
gen() { # gen RUNS FILE
    /usr/bin/python3 - "$1" "$2" <<'PY'
import io, random, sys, tarfile
runs, out = int(sys.argv[1]), sys.argv[2]
systems = [f"sys{i}" for i in range(10)]
workloads = [(rw, bs, qd) for rw in ("randread", "randwrite", "read", "write") for bs in ("4k", "64k")
             for qd in (1, 32)][:20] + [("randrw", "4k", 8), ("randrw", "64k", 8), ("rw", "1m", 4), ("read", "1m", 1)]
workloads = workloads[:20]
reps = runs // (len(systems) * len(workloads))
rnd = random.Random(42)
def one(name, rw, bs, qd, speed):
    iops = speed * rnd.uniform(0.9, 1.1)
    lat = 1e6 / iops * qd
    out = [f"{name}: (g=0): rw={rw}, bs=(R) {bs}-{bs}, (W) {bs}-{bs}, (T) {bs}-{bs}, ioengine=libaio, iodepth={qd}",
           "fio-3.33", "Starting 1 process", "",
           f"{name}: (groupid=0, jobs=1): err= 0: pid=1000: Mon Nov 30 03:10:21 2026"]
    dirs = ["read", "write"] if rw in ("randrw", "rw") else ["write" if "write" in rw else "read"]
    for d in dirs:
        out += [f"  {d}: IOPS={iops:.0f}, BW={iops * 4 / 1024:.1f}MiB/s ({iops * 4.096 / 1000:.1f}MB/s)(100MiB/2000msec)",
                f"    clat (usec): min=10, max=9000, avg={lat:.2f}, stdev=12.34",
                f"     lat (usec): min=11, max=9001, avg={lat + 1:.2f}, stdev=12.40",
                "    clat percentiles (usec):",
                "     |  1.00th=[   20],  5.00th=[   22], 10.00th=[   24], 20.00th=[   26],",
                "     | 50.00th=[   40], 90.00th=[   80], 99.00th=[  200], 99.90th=[  900],",
                f"   bw (  KiB/s): min= 1000, max= 9000, per=100.00%, avg={iops * 4:.2f}, stdev=100.00, samples=4",
                f"   iops        : min=  250, max= 2250, avg={iops:.2f}, stdev=25.00, samples=4"]
    out += ["  cpu          : usr=2.00%, sys=10.00%, ctx=1000, majf=0, minf=10",
            "  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%",
            "", "Run status group 0 (all jobs):",
            "   READ: bw=10.0MiB/s (10.5MB/s), 10.0MiB/s-10.0MiB/s (10.5MB/s-10.5MB/s), io=100MiB (105MB), run=2000-2000msec",
            ""]
    return "\n".join(out) + "\n"
with tarfile.open(out, "w:gz", compresslevel=1) as tar:
    for si, s in enumerate(systems):
        for wi, (rw, bs, qd) in enumerate(workloads):
            name = f"{rw}-{bs}-q{qd}"
            text = "".join(one(name, rw, bs, qd, 10000 * (1 + si) / (1 + wi % 5)) for _ in range(reps))
            data = text.encode()
            info = tarfile.TarInfo(f"results/{s}/{name}.txt")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
PY
}
sizes=${SIZES:-25000 50000 100000}
for n in $sizes; do [ -f "$work/runs-$n.tar.gz" ] || gen "$n" "$work/runs-$n.tar.gz"; done

echo "analysis alone (bench/analysis_scale.c); seconds, heap bytes; A B A B order over the sizes"
printf '%8s %8s %4s %7s %6s  %9s %9s %9s %9s %9s  %12s %9s\n' runs rows sys pivot cmp parse_s \
    build_cpu pivot_cpu cmp_cpu total_cpu heap_bytes bytes/run
for round in $(seq "$rounds"); do
    for n in $sizes; do
        read -r r rows sys pr cr tp bc bw pc pw cc cw hb < <("$drv" "$work/runs-$n.tar.gz")
        tot=$(/usr/bin/python3 -c "print(f'{$bc + $pc + $cc:.3f}')")
        printf '%8s %8s %4s %7s %6s  %9s %9s %9s %9s %9s  %12s %9s\n' "$r" "$rows" "$sys" "$pr" "$cr" "$tp" \
            "$bc" "$pc" "$cc" "$tot" "$hb" "$((hb / r))"
    done
done

echo
echo "whole commands (wall s, user+sys s, max RSS KiB)"
for n in $sizes; do
    for cmd in "table --pivot -m iops" "compare --by system -m iops,lat"; do
        /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$fsc" $cmd -q "$work/runs-$n.tar.gz" >/dev/null
        read -r e u s m <"$work/t"
        printf '%8s  %-34s %7s %7.2f %9s\n' "$n" "$cmd" "$e" "$(echo "$u + $s" | bc)" "$m"
    done
    /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$fsc" parse -q --jsonl "$work/runs-$n.tar.gz" >/dev/null
    read -r e u s m <"$work/t"
    printf '%8s  %-34s %7s %7.2f %9s\n' "$n" "parse --jsonl (reference)" "$e" "$(echo "$u + $s" | bc)" "$m"
done

if [ "${CALLGRIND:-0}" = 1 ]; then
    echo
    echo "instructions of the analysis alone (callgrind, instrumented around it only)"
    for n in 25000 50000; do
        valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.$n" "$drv" \
            "$work/runs-$n.tar.gz" >/dev/null 2>"$work/cg.err"
        ir=$(grep -m1 '^totals:' "$work/cg.$n" | awk '{print $2}')
        printf '%8s runs: %s instructions (%s per run)\n' "$n" "$ir" "$((ir / n))"
    done
fi
