#!/usr/bin/env bash
# Parse time grows linearly with the input (issue #18, H1 and H2, and the tolerance
# work of issue #15): each attack shape is parsed at 1x, 2x, 4x and 8x its size, in
# front of a good fio log. The user CPU time above that of a tiny input (start-up)
# must grow at most 2.5x faster than the size: 8x the input may cost at most 10x the
# 2x time (linear: 4x, quadratic: 16x). Ratios only, never absolute times; each size
# is timed best of two, and a size that runs 100 times longer than 1x (wall time)
# fails at once. A shape too cheap to time is grown first until 1x costs at least
# MIN_WORK above start-up: a 10 ms run on a shared machine is mostly noise, and a CI run
# once failed a linear shape that way (2x 0.010 s, 8x 0.152 s). A ratio over the bound
# is measured twice more (2x and 8x) and the medians decide, as in complexity.py.
# The H1/H2 shapes themselves ('{' lines, one-word lines, lone CR, quotes, gutters) are
# in the complexity check (complexity.py); this keeps the tolerance shapes. Plain build
# only, like the complexity check: ASan's costs are not the program's.
source "$(dirname "$0")/../input/lib.sh"
case "${FSC_BUILD_DIR:-}" in *asan*) echo "parse_linear: run by the plain suite"; exit 0 ;; esac

/usr/bin/python3 - "$FIOSCOPE" "$FSC_CORPUS/fio-3.33/a_randread_psync.txt" <<'PY'
import resource, statistics, subprocess, sys

fioscope, good_path = sys.argv[1], sys.argv[2]
good = open(good_path).read()
prefixed = "".join("12:10:%02d DEBUG| [stdout] %s\n" % (i % 60, l) for i, l in enumerate(good.splitlines()))
unit = 50000  # lines of the attack at 1x

# shape name -> text of size k (k = 1, 2, 4, 8)
shapes = {
    # H1: a fio JSON start in every line, never balanced
    "fio-json-starts": lambda k: '{ "fio version" : "fio-3.33", "jobs" : [\n' * (unit * k) + good,
    # H2: job sections of value-less options
    "section-option-stretch": lambda k: ("[job]\n" + "direct\n" * 50) * (unit * k // 50) + good,
    # tolerance: prefixed blocks, marked-up lines, wrapped lines, grep fragments
    # (32-line log: 1600 copies at 1x, so that 2x is well above the clock and start-up noise)
    "prefixed-log": lambda k: prefixed * (k * 1600),
    "markup-lines": lambda k: "  read: **IOPS=111k**, BW=`434MiB/s` (455MB/s)(4340MiB/10001msec)\n" * (unit * k // 4) + good,
    "grep-fragments": lambda k: "".join("r%d.log:  read: IOPS=%d, BW=1MiB/s (1MB/s)(10MiB/10001msec)\n" % (i, i) for i in range(unit * k // 4)),
    "unbalanced-elided-json": lambda k: '{\n  "fio version" : "fio-3.33",\n  "jobs" : [\n' + '    {\n      "jobname" : "x",\n      ...\n' * (unit * k // 3),
    "wrap-continuations": lambda k: ("  lat (usec)   : 2=0.01%, 10=0.01%,\n20=0.12%,\n") * (unit * k // 2) + good,
}


def cpu_seconds(path, limit=None):
    best = None
    for _ in range(2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            subprocess.run([fioscope, "parse", "-q", path], stdout=subprocess.DEVNULL, check=False,
                           timeout=limit)
        except subprocess.TimeoutExpired:
            return float("inf")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = after.ru_utime - before.ru_utime
        best = t if best is None else min(best, t)
    return best


MIN_WORK = 0.04  # CPU seconds above start-up that 1x must cost
BOUND = 10.0     # 8x/2x: linear is 4, quadratic 16


def work(path, limit=None):
    # the work above start-up; below the clock's resolution counts as 5 ms
    return max(cpu_seconds(path, limit) - startup, 0.005)


open("tiny.txt", "w").write("x\n")
startup = cpu_seconds("tiny.txt")
fails = 0
for name, make in shapes.items():
    scale = 1
    while True:
        path = "%s-%d.txt" % (name, scale)
        open(path, "w").write(make(scale))
        first = work(path)
        if first >= MIN_WORK or scale >= 16:
            break
        scale *= 2
    times = {1: first}
    paths = {1: path}
    for k in (2, 4, 8):
        paths[k] = "%s-%d.txt" % (name, k * scale)
        open(paths[k], "w").write(make(k * scale))
        limit = max(30.0, 100 * times[1])  # wall time: a loaded machine
        times[k] = work(paths[k], limit)
        if times[k] == float("inf"):
            break
    for k in (2, 4, 8):
        times.setdefault(k, float("inf"))
    ratio = times[8] / times[2]
    if BOUND < ratio < float("inf"):
        twos = [times[2]] + [work(paths[2]) for _ in range(2)]
        eights = [times[8]] + [work(paths[8]) for _ in range(2)]
        ratio = statistics.median(eights) / statistics.median(twos)
    verdict = "ok" if ratio <= BOUND else "FAIL (grows faster than linearly)"
    fails += ratio > BOUND
    print("%-24s x%-2d 1x %.3fs 2x %.3fs 4x %.3fs 8x %.3fs  8x/2x %.1f  %s" %
          (name, scale, times[1], times[2], times[4], times[8], ratio, verdict))
sys.exit(1 if fails else 0)
PY
