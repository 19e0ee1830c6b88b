#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The oracle test: fio wrote the same run as JSON and as normal text. fioscope parses the
normal text; every field the text shows must equal fio's JSON value within the precision
the text prints, and every field fio prints in the text must be there.

usage: oracle_check.py FIOSCOPE FIXTURE...   (exit 1 on any mismatch)
A FIXTURE is either a file holding fio's JSON and normal text of one run, or
TEXT=JSON: a text file (e.g. a damaged paste) and fio's JSON of the same run.
"""
import json
import time
import os
import re
import math
import subprocess
import sys

NS_UNITS = {"nsec": 1, "usec": 1000, "msec": 1000000}


def fio_json(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    start = text.index("{\n") if "{\n" in text else text.index("{")
    # fio prints a steady state's slope of one sample as "-nan" (C's printf)
    text = re.sub(r"(?<=: )-?nan(?=[,\n])", "NaN", text[start:])
    obj, _ = json.JSONDecoder(strict=False).raw_decode(text)  # fio leaves a tab raw in "desc"
    # group_reporting's empty entry (no name, group 2^32-1): no job of the text's
    obj["jobs"] = [j for j in obj.get("jobs", []) if "jobname" in j or j.get("groupid") != 4294967295]
    return obj


LEGACY = {"on": False}
# a run merged with its terse (ORACLE_MERGED): its latencies may be terse's whole usec, cut down
TERSE_USEC = {"on": False}  # fio < 2.99: usec clock, 6-character numbers before 2.17


def version_tuple(v):
    import re
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", v or "")
    return tuple(int(x or 0) for x in m.groups()) if m else (0, 0, 0)


def modernize(fio):
    """fio 2.x JSON → 3.x names and units (clat usec → clat_ns, io_bytes KiB → bytes)."""
    ver = version_tuple(fio.get("fio version"))
    for job in fio.get("jobs", []) or fio.get("client_stats", []):  # --client: its own list
        for d in ("read", "write", "trim", "mixed"):
            dd = job.get(d)
            if not dd:
                continue
            for old, new in (("slat", "slat_ns"), ("clat", "clat_ns"), ("lat", "lat_ns")):
                if old in dd and new not in dd:
                    o = dd.pop(old)
                    n = {k: v * 1000 for k, v in o.items() if isinstance(v, (int, float))}
                    if "percentile" in o:
                        n["percentile"] = {k: v * 1000 for k, v in o["percentile"].items() if k != "0.00"}
                    dd[new] = n
            # before 3.18, lat_percentiles=1 made fio's one list lat's, written under clat_ns
            opts = dict(fio.get("global options", {}))
            opts.update(job.get("job options", {}))
            old_lat = opts.get("lat_percentiles", "0" if opts.get("clat_percentiles") != "0" else "1") == "1"
            if ver < (3, 18, 0) and old_lat and "percentile" in dd.get("clat_ns", {}):
                dd.setdefault("lat_ns", {})["percentile"] = dd["clat_ns"].pop("percentile")
            if ver < (2, 21, 0) and "io_bytes" in dd:
                dd["io_bytes"] *= 1024
            if "bw_bytes" not in dd and "bw" in dd:  # KiB/s cut down: up to 1023 bytes/s low
                dd["bw_bytes"] = dd["bw"] * 1024
                dd["bw_bytes_cut"] = True
    return fio


def lat_line_unit(lat):
    """The unit fio's show_lat() picks for a slat/clat/lat line (stat.c, 3.x)."""
    mn, mx, sd = lat.get("min", 0), lat.get("max", 0), lat.get("stddev", 0)
    if LEGACY["on"]:
        mean = lat.get("mean", 0)
        if mn > 1e6 and mx > 1e6 and mean > 1e6 and sd > 1e6:
            return 1000000
        return 1000
    if mn > 2000000 and mx > 99999999 and sd > 1000000:
        return 1000000
    if mn > 2000 and mx > 99999 and sd > 1000:
        return 1000
    return 1


def pctl_unit(lat):
    """The unit of a percentile block (no stddev condition)."""
    mn, mx = lat.get("min", 0), lat.get("max", 0)
    if mn > 2000000 and mx > 99999999:
        return 1000000
    if mn > 2000 and mx > 99999:
        return 1000
    return 1


def sig4_tol(v, base, maxlen=None):
    """Tolerance of a value printed by num2str with 4 characters (e.g. 58.7MiB, 1405KiB,
    15.0k), 6 before fio 2.17, significant_figures=N's N: one unit of the last printed
    digit (2 from 2.20 to 2.99; before 2.20 a whole unit of the integer part: num2str
    made its one decimal by dividing the remainder by 10, rounding up, until one digit was
    left, so 1772.88 MiB/s printed as "1772.1MB/s", 2168961 as "2168.1K")."""
    maxlen = maxlen or LEGACY.get("sigfig") or (6 if LEGACY.get("num6") else 4)
    if v == 0:
        return 0.5
    p = 0
    x = abs(v)
    while x >= 10 ** maxlen:
        x /= base
        p += 1
    int_digits = len(str(int(x))) if x >= 1 else 1
    decimals = max(0, maxlen - 1 - int_digits) if p > 0 else 0
    ulp = 2 if LEGACY["on"] else 1
    if LEGACY["on"] and VERSION["v"] < (2, 20, 0):
        return (base ** p) * 1.0001
    return ulp * (10 ** -decimals) * (base ** p) * 1.0001


def minmax_tol(v_ns, unit):
    """min/max: integers in the line unit, 6 digits, then k/M with decimals."""
    x = abs(v_ns) / unit
    if x < 1000000:
        return unit * 1.0001
    return sig4_tol(x, 1000, 4) * unit * 10  # (significant_figures does not change these)


VERSION = {"v": (0, 0, 0)}


def ver_at_least(*v):
    return VERSION["v"] >= tuple(v)


class Checker:
    def __init__(self, name):
        self.name = name
        self.errors = []
        self.checked = 0

    def eq(self, where, ours, theirs, tol):
        self.checked += 1
        if ours is None:
            self.errors.append(f"{where}: missing (fio: {theirs})")
            return
        if abs(ours - theirs) > tol:
            self.errors.append(f"{where}: fioscope {ours!r} != fio {theirs!r} (tolerance {tol:g})")

    def pct2(self, where, ours, theirs):
        """A percentage printed with 2 decimals; non-zero below 0.01 prints as 0.01."""
        if theirs > 0 and theirs < 0.01 and ours == 0.01:
            self.checked += 1
            return
        self.eq(where, ours, theirs, 0.005 + 1e-9)


def check_lat(c, where, ours, theirs, show_pctl):
    if not theirs:
        return
    n = theirs.get("N", None)
    if n == 0 or (n is None and theirs.get("max", 0) == 0):
        if ours and ours.get("max"):
            c.errors.append(f"{where}: fio has no samples but fioscope has some")
        return
    ours = ours or {}
    unit = lat_line_unit(theirs)
    for k in ("min", "max"):
        c.eq(f"{where}.{k}", ours.get(k), theirs[k], max(minmax_tol(theirs[k], unit), 1000 * TERSE_USEC["on"]))
    for k in ("mean", "stddev"):
        c.eq(f"{where}.{k}", ours.get(k), theirs[k], 0.005 * unit + 1e-6 * abs(theirs[k]) + 1e-9)
    if show_pctl and "percentile" in theirs:
        op = ours.get("percentile", {})
        for key, v in theirs["percentile"].items():
            if float(key) == 0.0:
                continue  # fio <= 3.3 fills unused list slots with a duplicate "0.00": 0
            o = op.get(key)
            # fio rounds a percentile up to the block's unit (nsec/usec/msec): ours is
            # that rounded value, so 0 <= ours - fio < unit
            pu = 1
            if o is not None:
                if o >= 1e6 and o % 1000000 == 0 and o - v < 1e6:
                    pu = 1000000
                elif o >= 1000 and o % 1000 == 0:
                    pu = 1000
            if TERSE_USEC["on"] and o is not None and o % 1000 == 0 and v - 1000 < o <= v:
                c.checked += 1
                continue
            if o is not None and o < v:
                c.errors.append(f"{where}.percentile[{key}]: fioscope {o} below fio {v}")
            c.eq(f"{where}.percentile[{key}]", o, v, pu * 1.0001)


def check_dir(c, where, ours, theirs, lat_pctl_kinds, summed_mixed=False, units=(1024, False)):
    if theirs.get("total_ios", 0) == 0 and theirs.get("io_bytes", 0) == 0:
        return
    ours = ours or {}
    if theirs.get("runtime", 1) == 0:
        # no runtime, no direction line (ioengine=cpuio; a job that died before its
        # first completion; verify_backlog's reads, bytes and all): only the issued
        # line's counts are in the text (show_ddir_status returns without a runtime)
        for k in ("total_ios", "short_ios", "drop_ios"):
            if k in theirs:
                c.eq(f"{where}.{k}", ours.get(k), theirs[k], 0)
        return
    if summed_mixed:
        # unified_rw_reporting=both: fio 3.27-3.38 print "mixed: IOPS=0, BW=0 (0)(0B/...)"
        # although the JSON has the sums, and "issued" counts only read, write and
        # trim. fioscope reads the sums of the job's read, write and trim lines (each
        # rounded to its printed digits: up to three of their tolerances) and of their
        # issued counts (exact); the stats lines below the mixed line are real.
        for k, base in (("io_bytes", 1024), ("bw_bytes", 1024), ("iops", 1000)):
            c.eq(f"{where}.{k}", ours.get(k), theirs[k], 3 * sig4_tol(theirs[k], base) + 1)
        for k in ("total_ios", "short_ios", "drop_ios"):
            if k in theirs:
                c.eq(f"{where}.{k}", ours.get(k), theirs[k], 0)
        check_lat_and_stats(c, where, ours, theirs, lat_pctl_kinds, units)
        return
    base, bits = units
    if LEGACY.get("sigfig"):
        # significant_figures=1 prints a value under half its unit as "0TiB/s",
        # "(0GiB/...)", "IOPS=0M": fioscope leaves those out (or works bandwidth out
        # from the bytes, IOPS from the issued count) rather than read a 0
        ours = dict(ours)
        for k in ("io_bytes", "bw_bytes", "iops"):
            if ours.get(k) is None:
                ours[k] = theirs[k]
    # kb_base=1000: the io figure is in kB/MB/GB too ("(101MB/1003msec)")
    c.eq(f"{where}.io_bytes", ours.get("io_bytes"), theirs["io_bytes"], sig4_tol(theirs["io_bytes"], base) + 1)
    if bits:  # unit_base=1: BW= in bit/s, its first figure in kb_base's units
        bw_tol = sig4_tol(theirs["bw_bytes"] * 8, base) / 8 + 1
    else:
        bw_tol = sig4_tol(theirs["bw_bytes"], base) + 1  # kb_base=1000: its first figure is in MB/s
    c.eq(f"{where}.bw_bytes", ours.get("bw_bytes"), theirs["bw_bytes"], bw_tol + 1024 * theirs.get("bw_bytes_cut", False))
    c.eq(f"{where}.iops", ours.get("iops"), theirs["iops"], sig4_tol(theirs["iops"], 1000) + 0.5)
    c.eq(f"{where}.runtime", ours.get("runtime"), theirs["runtime"], 0)
    for k in ("total_ios", "short_ios", "drop_ios"):
        if k in theirs:
            c.eq(f"{where}.{k}", ours.get(k), theirs[k], 0)
    check_lat_and_stats(c, where, ours, theirs, lat_pctl_kinds, units)


HIGHLOW = ("clat_high_prio", "clat_low_prio", "lat_high_prio", "lat_low_prio")


def numeric(x):
    """x with its numbers as floats (fio writes 0.0 where fioscope writes 0)."""
    if isinstance(x, dict):
        return {k: numeric(v) for k, v in x.items()}
    if isinstance(x, list):
        return [numeric(v) for v in x]
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else x


def prio_key(p):
    return (p.get("prioclass"), p.get("prio"), p.get("priohint"))


def check_prios(c, where, ours, theirs):
    """Latencies by I/O priority (cmdprio_percentage; jobs of several prios summed).
    fio 3.18-3.29: "clat_high_prio"/"clat_low_prio" (lat_* with lat_percentiles=1);
    the text shows the high one's stats (3.18: only it), the low one's (3.19+), and
    both percentile lists when both have samples. fio 3.30+: "prios" entries by
    class/level(/hint), all shown when two or more have samples."""
    n = lambda o: (o or {}).get("N", 0)
    both = all(n(theirs.get(k)) > 0 for k in HIGHLOW[:2]) or all(n(theirs.get(k)) > 0 for k in HIGHLOW[2:])
    for k in HIGHLOW:
        if k in theirs and not (VERSION["v"] < (3, 19, 0) and "low" in k):
            check_lat(c, f"{where}.{k}", ours.get(k), theirs[k], both)
    mine = {prio_key(p): p for p in ours.get("prios", [])}
    for p in theirs.get("prios", []):
        key = prio_key(p)
        c.checked += 1
        if key not in mine:
            c.errors.append(f"{where}.prios{list(key)}: missing")
            continue
        for kind in ("clat_ns", "lat_ns"):
            if kind in p:
                check_lat(c, f"{where}.prios{list(key)}.{kind}", mine[key].get(kind), p[kind], True)
    c.checked += 1
    extra = set(mine) - {prio_key(p) for p in theirs.get("prios", [])}
    extra |= {k for k in HIGHLOW if k in ours and k not in theirs}
    if extra:
        c.errors.append(f"{where}: priorities fio's JSON does not have: {sorted(map(str, extra))}")


def check_lat_and_stats(c, where, ours, theirs, lat_pctl_kinds, units=(1024, False)):
    for kind in ("slat_ns", "clat_ns", "lat_ns"):
        check_lat(c, f"{where}.{kind}", ours.get(kind), theirs.get(kind), kind in lat_pctl_kinds)
    check_prios(c, where, ours, theirs)
    if theirs.get("bw_samples", 0) > 0:
        # the bw line is in KiB/s, or for fast jobs in "MiB/s": values / kb_base (1024,
        # or 1000 with kb_base=1000)
        ours_min = ours.get("bw_min") or 0
        bu = next((b for b in (1024, 1000) if ours_min % b == 0), 1) if theirs["bw_mean"] >= 1000000 else 1
        if units[1] and bu == 1 and ours_min and ours_min % (units[0] // 8) == 0:
            bu = units[0] // 8  # unit_base=1 (fio 3.5): "bw (Mibit/s)", KiB/s x 8 / kb_base, cut
        for k in ("bw_min", "bw_max"):
            c.eq(f"{where}.{k}", ours.get(k), theirs[k], 0.5 * bu if bu == 1 else bu)
        for k in ("bw_samples", "iops_min", "iops_max", "iops_samples"):
            c.eq(f"{where}.{k}", ours.get(k), theirs[k], 0.5)
        # fio's text and JSON pass the mean through an int: from 2^31 KiB/s on, a negative
        # share (convert_agg_kbytes_percent); a run merged with its terse has terse's
        if not (TERSE_USEC["on"] and theirs["bw_agg"] < 0 and theirs["bw_mean"] >= 2**31):
            c.pct2(f"{where}.bw_agg", ours.get("bw_agg"), theirs["bw_agg"])
        for k in ("bw_mean", "bw_dev"):
            c.eq(f"{where}.{k}", ours.get(k), theirs[k], 0.00501 * bu)
        for k in ("iops_mean", "iops_stddev"):
            c.eq(f"{where}.{k}", ours.get(k), theirs[k], 0.005 + 1e-9)


def check_steady(c, where, ours, theirs):
    """--ss: the text's "steadystate  : attained=yes, bw=60.0MiB/s (61.5MB/s), iops=15.4k,
    [lat=56.6knsec,] lat mean dev=1.222%": the window's means to the digits printed (a
    latency in whole units), the criterion to 3 decimals."""
    if not theirs:
        return
    if not ours:
        c.errors.append(f"{where}.steadystate: missing")
        return
    c.eq(f"{where}.steadystate.attained", ours.get("attained"), theirs["attained"], 0)
    num = lambda s: float(str(s).rstrip("%")) if s is not None else None
    c.eq(f"{where}.steadystate.criterion", num(ours.get("criterion")), num(theirs["criterion"]), 0.0005 + 1e-9)
    od, td = ours.get("data", {}), theirs.get("data", {})
    for k in ("bw_mean", "iops_mean", "lat_mean"):
        if k not in td:
            continue
        v = td[k]
        unit = 1e6 if v >= 1e6 else 1e3 if v >= 1e3 else 1
        tol = max(0.006 * v, unit if k == "lat_mean" else 0.5)
        if LEGACY["on"] and VERSION["v"] < (2, 20, 0):
            tol = max(tol, sig4_tol(v, 1000 if k == "iops_mean" else 1024))  # the decimal says nothing

        c.eq(f"{where}.steadystate.data.{k}", od.get(k), v, tol)


def check_job(c, where, ours, theirs, lat_pctl_kinds, units=(1024, False)):
    for k in ("jobname", "groupid", "error"):
        if ours.get(k) != theirs.get(k):
            c.errors.append(f"{where}.{k}: fioscope {ours.get(k)!r} != fio {theirs.get(k)!r}")
        c.checked += 1
    dirs = ["read", "write", "trim"]
    if "mixed" in theirs:
        dirs.append("mixed")
    # unified_rw_reporting=both: the mixed line beside the directions' own
    both = "mixed" in theirs and any(theirs.get(d, {}).get("total_ios", 0) > 0 for d in ("read", "write", "trim"))
    # significant_figures=N: num2str prints N characters of each value (its maxlen)
    sf = theirs.get("job options", {}).get("significant_figures") or LEGACY.get("sf_global")
    LEGACY["sigfig"] = int(sf) if sf and sf.isdigit() else None
    for d in dirs:
        if d in theirs:
            check_dir(c, f"{where}.{d}", ours.get(d), theirs[d], lat_pctl_kinds, d == "mixed" and both, units)
    LEGACY["sigfig"] = None
    sync = theirs.get("sync", {})
    if sync.get("total_ios", 0) > 0:
        o = ours.get("sync", {})
        c.eq(f"{where}.sync.total_ios", o.get("total_ios"), sync["total_ios"], 0)
        check_lat(c, f"{where}.sync.lat_ns", o.get("lat_ns"), sync.get("lat_ns"), True)
    for k in ("usr_cpu", "sys_cpu"):
        c.pct2(f"{where}.{k}", ours.get(k), theirs[k])
    for k in ("ctx", "majf", "minf", "total_err", "first_error"):
        if k in theirs:  # (total_err, first_error: continue_on_error only)
            c.eq(f"{where}.{k}", ours.get(k), theirs[k], 0)
    for lk in ("iodepth_level", "iodepth_submit", "iodepth_complete"):
        for key, v in theirs.get(lk, {}).items():
            o = ours.get(lk, {}).get(key)
            if v > 0 and v < 0.1 and o == 0.1:
                c.checked += 1
                continue
            c.eq(f"{where}.{lk}[{key}]", o, v, 0.05 + 1e-9)
    for lk in ("latency_ns", "latency_us", "latency_ms"):
        for key, v in theirs.get(lk, {}).items():
            o = ours.get(lk, {}).get(key)
            if v == 0 and o is None:
                continue  # fio prints only non-zero buckets
            c.pct2(f"{where}.{lk}[{key}]", o if o is not None else 0.0, v)
    check_steady(c, where, ours.get("steadystate"), theirs.get("steadystate"))
    if "latency_depth" not in theirs:
        return  # fio --client's "All clients" sum has no latency target line
    c.eq(f"{where}.latency_depth", ours.get("latency_depth"), theirs["latency_depth"], 0)
    for k, ns in (("latency_target", 1), ("latency_window", 1000)):
        # fio 3.42+ prints "target=12.34ms, window=123.46ms": 2 decimals of the unit
        # it picks (ns, us, ms, s); before, whole ns (target) and us (window)
        v = theirs[k]
        unit = next((u for u in (1e9, 1e6, 1e3) if v * ns >= u), 1) / ns
        c.eq(f"{where}.{k}", ours.get(k), v, 0.005 * unit + 1e-9 if ver_at_least(3, 42) else 0)
    c.pct2(f"{where}.latency_percentile", ours.get("latency_percentile"), theirs["latency_percentile"])


def check_disks(c, ours, theirs):
    by_name = {}
    for d in ours:  # fio --client: each client's disks, names repeated (in order: their reports')
        by_name.setdefault(d["name"], []).append(d)
    for d in theirs:
        same = by_name.get(d["name"]) or [None]
        o = next((x for x in same if x and x.get("read_ios") == d.get("read_ios")), same[0])
        if o is not None and len(same) > 1:
            same.remove(o)
        where = f"disk_util[{d['name']}]"
        if o is None:
            c.errors.append(f"{where}: missing")
            continue
        for k, v in d.items():
            if k in ("name", "hostname", "port"):
                continue
            if k.endswith("util"):
                c.pct2(f"{where}.{k}", o.get(k), v)
            else:
                c.eq(f"{where}.{k}", o.get(k), v, 0)


def check_idleness(c, ours, theirs):
    """--idle-prof: "system: 96.20%", "percpu: ..." and "unit work: mean=7.81us, stddev=0.00",
    each printed with 2 decimals."""
    for k, v in (theirs or {}).items():
        c.pct2(f"cpu_idleness.{k}", (ours or {}).get(k), v)
    if ours and theirs is None:
        c.errors.append(f"cpu_idleness: fioscope {ours}, fio has none")


def main():
    exe, fixtures = sys.argv[1], sys.argv[2:]
    failed = 0
    total_checked = 0
    for fx in fixtures:
        if "=" in fx:
            fx, jpath = fx.split("=", 1)
            fio = fio_json(jpath)
        else:
            fio = fio_json(fx)
        fio = modernize(fio)
        ver = version_tuple(fio.get("fio version"))
        VERSION["v"] = ver
        LEGACY["on"] = ver < (2, 99, 0)
        LEGACY["num6"] = ver < (2, 17, 0)
        # ORACLE_MERGED=1: the run the text is merged into (with its terse, say), not the text's own
        merged = os.environ.get("ORACLE_MERGED") == "1"
        out = subprocess.run([exe, "parse", "-q"] + ([] if merged else ["--each-format"]) + [fx], capture_output=True, check=False)
        doc = json.loads(out.stdout)
        runs = [r for r in doc["runs"] if "normal" in (r["source"].get("formats") or [r["source"]["format"]])]
        c = Checker(fx)
        fjobs = fio.get("jobs") or fio.get("client_stats", [])  # with "All clients", their sum (a job of the text too)
        # fio's text leaves out a job that did no I/O (no bytes, no I/O issued: stat.c's
        # show_thread_status_normal): one that failed before it ran, or that exitall or
        # exitall_on_error stopped first; its JSON keeps it
        did_io = lambda j: any(j.get(d, {}).get(k, 0) for d in ("read", "write", "trim", "mixed")
                               for k in ("io_bytes", "io_kbytes", "total_ios"))
        fjobs = [j for j in fjobs if did_io(j)]
        if not runs and not fjobs:
            # every job failed before it ran: fio's text holds no job block, so no run
            # is read from it (the input's error says why)
            c.checked += 1
        elif len(runs) != 1:
            c.errors.append(f"expected 1 normal-text run, found {len(runs)}")
        else:
            run = runs[0]
            TERSE_USEC["on"] = "terse" in (run["source"].get("formats") or [])
            gopts = fio.get("global options", {})
            if len(run["jobs"]) != len(fjobs):
                c.errors.append(f"jobs: fioscope {len(run['jobs'])} != fio {len(fjobs)}")
            if not fio.get("jobs"):  # fio --client: the clients' reports in the text's order
                ios = lambda j: tuple(j.get(d, {}).get("total_ios") for d in ("read", "write", "trim"))
                left, paired = list(fjobs), []
                for o in run["jobs"]:
                    t = next((t for t in left if t["jobname"] == o["jobname"] and ios(t) == ios(o)), None)
                    t = t or next((t for t in left if t["jobname"] == o["jobname"]), left[0] if left else None)
                    if t is not None:
                        left.remove(t)
                        paired.append(t)
                fjobs = paired + left
            for i, (o, t) in enumerate(zip(run["jobs"], fjobs)):
                opts = dict(gopts)
                opts.update(t.get("job options", {}))
                kinds = {"clat_ns"}
                if opts.get("lat_percentiles") == "1" or (ver < (3, 18, 0) and opts.get("clat_percentiles") == "0"
                                                          and "lat_percentiles" not in opts):
                    kinds = {"lat_ns"}  # (before 3.18 clat_percentiles=0 alone set its inverse)
                if opts.get("slat_percentiles") == "1":
                    kinds.add("slat_ns")
                if opts.get("clat_percentiles") == "1":
                    kinds.add("clat_ns")
                if opts.get("lat_percentiles") == "1" and opts.get("clat_percentiles") != "0" and ver >= (3, 18, 0):
                    kinds.add("clat_ns")  # fio 3.18 on prints both lists; before, lat's replaced clat's
                units = (1000 if opts.get("kb_base") == "1000" else 1024, opts.get("unit_base") == "1")
                LEGACY["sf_global"] = gopts.get("significant_figures")
                check_job(c, f"jobs[{i}]({t['jobname']})", o, t, kinds, units)
            # fio 3.10's client prints no "Disk stats" in the text when JSON was asked
            # too (client.c handle_du: JSON or normal); its JSON has them
            if run.get("disk_util") or "client_stats" not in fio or ver >= (3, 11, 0) or ver < (3, 10, 0):
                check_disks(c, run.get("disk_util", []), fio.get("disk_util", []))
            check_idleness(c, run.get("cpu_idleness"), fio.get("cpu_idleness"))
            # fioscope's reading of the fixture's JSON labels each percentile list as its
            # reading of the text does (a list is clat's or lat's by what it holds)
            jruns = [r for r in doc["runs"] if r["source"]["format"] == "json"]
            for jr in jruns[:1] if not merged else []:
                for i, (o, t) in enumerate(zip(run["jobs"], jr["jobs"])):
                    for d in ("read", "write", "trim", "mixed"):
                        lists = lambda x: {k for k in ("slat_ns", "clat_ns", "lat_ns") if x.get(d, {}).get(k, {}).get("percentile")}
                        c.checked += 1
                        if lists(o) - lists(t):
                            c.errors.append(f"jobs[{i}].{d}: percentile lists {sorted(lists(o))} from the text, {sorted(lists(t))} from the JSON")
                # the JSON's priorities read as fio wrote them, N and all
                for i, (t, f) in enumerate(zip(jr["jobs"], fjobs)):
                    for d in ("read", "write", "trim", "mixed"):
                        ft, tt = f.get(d, {}), t.get(d, {})
                        for k in HIGHLOW + ("prios",):
                            if k in ft or k in tt:
                                c.checked += 1
                                if numeric(ft.get(k)) != numeric(tt.get(k)):
                                    c.errors.append(f"jobs[{i}].{d}.{k}: fioscope's reading of fio's JSON differs from it")
            # the run's time: the text's latest job header date, fio's JSON "time" (the
            # output's: the same second, or a few later for a server's clock)
            if fio.get("time"):
                c.checked += 1
                ours_t = run["source"].get("time")
                text = open(fx, encoding="utf-8", errors="replace").read()
                shown = re.search(r"pid=\d+: \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}", text)
                ctime = lambda x: time.mktime(time.strptime(x, "%a %b %d %H:%M:%S %Y"))
                if shown and not ours_t:
                    c.errors.append(f"source.time: missing (fio: {fio['time']})")
                elif ours_t and abs(ctime(ours_t) - ctime(fio["time"])) > 5:
                    c.errors.append(f"source.time: fioscope {ours_t!r} != fio {fio['time']!r}")
            if run["source"]["fio_version"] != fio["fio version"]:
                c.errors.append(f"fio_version {run['source']['fio_version']} != {fio['fio version']}")
        total_checked += c.checked
        status = "ok" if not c.errors else "FAIL"
        print(f"{status}: {fx}: {c.checked} fields checked, {len(c.errors)} mismatches")
        for e in c.errors[:40]:
            print("    " + e)
        failed += bool(c.errors)
    print(f"{len(fixtures) - failed} passed, {failed} failed ({total_checked} fields checked)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
