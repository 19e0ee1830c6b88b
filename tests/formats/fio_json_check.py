# SPDX-License-Identifier: MIT
# Field-by-field check of `fioscope parse` output against fio's own JSON document(s)
# in the same file: every fio JSON number must come out in fio 3.x names and base
# units (usec objects → *_ns, KiB io_bytes → bytes, raw json+ bin indices → latency).
# usage: fio_json_check.py FIO_OUTPUT_FILE FIOSCOPE_PARSE_JSON [FILE JSON]...
import json
import math
import re
import sys

DIRS = ("read", "write", "trim", "sync", "mixed")
JOB_NUMS = ("groupid", "error", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "job_runtime",
            "latency_depth", "latency_target", "latency_percentile", "latency_window", "total_err", "first_error")
DIR_NUMS = ("bw", "iops", "runtime", "total_ios", "short_ios", "drop_ios", "bw_min", "bw_max",
            "bw_agg", "bw_mean", "bw_dev", "bw_samples", "iops_min", "iops_max", "iops_mean",
            "iops_stddev", "iops_samples", "bw_bytes")
KVS = ("iodepth_level", "iodepth_submit", "iodepth_complete", "latency_ns", "latency_us", "latency_ms")
fails = []


def fio_docs(path):
    """Every top-level fio JSON object in the file (junk around them is skipped)."""
    text = open(path, encoding="utf-8", errors="replace").read()
    dec = json.JSONDecoder()
    out, pos = [], 0
    for m in re.finditer(r"^\{", text, re.M):
        if m.start() < pos:
            continue
        try:
            doc, end = dec.raw_decode(text, m.start())
        except ValueError:
            continue
        if isinstance(doc, dict) and ("jobs" in doc or "client_stats" in doc):
            out.append(doc)
            pos = end
    return out


def close(a, b):
    return a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float))
                      and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-9))


def check(where, want, got):
    if not close(want, got):
        fails.append(f"{where}: want {want!r} got {got!r}")


def agg_is_mean(version):
    m = re.match(r"(?:fio-)?(\d+)\.(\d+)(?:\.(\d+))?", version or "")
    if not m:
        return False
    v = tuple(int(x or 0) for x in m.groups())
    return v < (2, 1, 8)


def plat_value(idx, bits, val):
    if idx < (val << 1):
        return idx
    eb = (idx >> bits) - 1
    base = 1 << (eb + bits)
    return math.floor(base + ((idx % val) + 0.5) * (1 << eb))


def check_lat(where, flat, glat, mul):
    if glat is None:
        glat = {}
    for k in ("min", "max", "mean", "stddev", "N"):
        if k in flat:
            check(f"{where}.{k}", flat[k] * (1 if k == "N" else mul), glat.get(k))
    pct = {float(k): v * mul for k, v in flat.get("percentile", {}).items() if not (float(k) == 0 and v == 0)}
    if pct and any(pct.values()):
        gp = {float(k): v for k, v in glat.get("percentile", {}).items()}
        check(f"{where}.percentile", pct, gp)
    else:
        check(f"{where}.percentile(absent)", None, glat.get("percentile"))
    bins = flat.get("bins")
    if bins is not None:
        if "FIO_IO_U_PLAT_BITS" in bins:
            bits, val = bins["FIO_IO_U_PLAT_BITS"], bins["FIO_IO_U_PLAT_VAL"]
            want = {plat_value(int(k), bits, val) * mul: c for k, c in bins.items() if k.isdigit() and c}
            # fio computed its percentiles from the same buckets: each must be a bucket value
            for p, v in pct.items():
                if v and v not in want:
                    fails.append(f"{where}: percentile {p}={v} is no bin value")
        else:
            want = {float(k) * mul: c for k, c in bins.items()}
        got = {float(k): c for k, c in glat.get("bins", {}).items()}
        check(f"{where}.bins", want, got)


def check_dir(where, fd, gd, version):
    if gd is None:
        fails.append(f"{where}: missing")
        return
    if "io_bytes" in fd:
        check(f"{where}.io_bytes", fd["io_bytes"] * (1 if "io_kbytes" in fd else 1024), gd.get("io_bytes"))
    for k in DIR_NUMS:
        if k == "bw_agg" and agg_is_mean(version):
            check(f"{where}.bw_agg(dropped)", None, gd.get(k))
        elif k == "bw_bytes" and k not in fd and "bw" in fd:
            check(f"{where}.bw_bytes", fd["bw"] * 1024, gd.get(k))
        elif k in fd:
            check(f"{where}.{k}", fd[k], gd.get(k))
    for name, mul in (("slat", 1000), ("clat", 1000), ("lat", 1000), ("slat_ns", 1), ("clat_ns", 1), ("lat_ns", 1)):
        if name in fd:
            gname = name if name.endswith("_ns") else name + "_ns"
            check_lat(f"{where}.{name}", fd[name], gd.get(gname), mul)


def check_job(where, fj, gj, version):
    check(f"{where}.jobname", fj.get("jobname"), gj.get("jobname"))
    if "hostname" in fj:
        check(f"{where}.hostname", fj["hostname"], gj.get("hostname"))
    if fj.get("desc"):
        check(f"{where}.desc", fj["desc"], gj.get("desc"))
    for k in JOB_NUMS:
        if k in fj:
            check(f"{where}.{k}", fj[k], gj.get(k))
    if "job options" in fj:
        check(f"{where}.job options", fj["job options"], gj.get("job options"))
    for k in KVS:
        if k in fj:
            check(f"{where}.{k}", {a: b for a, b in fj[k].items()}, gj.get(k, {}))
    for d in DIRS:
        if d in fj:
            check_dir(f"{where}.{d}", fj[d], gj.get(d), version)


def check_file(fio_file, parse_json):
    docs = fio_docs(fio_file)
    out = json.load(open(parse_json))
    runs = [r for r in out["runs"] if r["source"]["format"] == "json"]
    check("number of JSON runs", len(docs), len(runs))
    for n, (doc, run) in enumerate(zip(docs, runs)):
        version = doc.get("fio version")
        check(f"run{n}.fio_version", version, run["source"]["fio_version"])
        jobs = doc.get("jobs", doc.get("client_stats", []))
        check(f"run{n}.n_jobs", len(jobs), len(run["jobs"]))
        for i, (fj, gj) in enumerate(zip(jobs, run["jobs"])):
            check_job(f"run{n}.job{i}", fj, gj, version)
        disks = doc.get("disk_util", [])
        check(f"run{n}.n_disks", len(disks), len(run["disk_util"]))
        for i, (fd, gd) in enumerate(zip(disks, run["disk_util"])):
            for k, v in fd.items():
                if k in ("hostname", "port"):
                    continue  # client/server disk owner: the model has no place for it
                check(f"run{n}.disk{i}.{k}", v, gd.get(k))
    return len(docs)


def main():
    bad = 0
    args = sys.argv[1:]
    for fio_file, parse_json in zip(args[0::2], args[1::2]):
        fails.clear()
        n = check_file(fio_file, parse_json)
        for f in fails[:30]:
            print(f"{fio_file}: {f}")
        if fails:
            print(f"{fio_file}: {len(fails)} mismatches")
            bad += 1
        else:
            print(f"ok: {fio_file}: {n} document(s)")
    sys.exit(1 if bad else 0)


main()
