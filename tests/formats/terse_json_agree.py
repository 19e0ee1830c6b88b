# SPDX-License-Identifier: MIT
# The same fio run written as terse AND JSON (corpus fio-X/g_normal_terse_json.txt):
# the terse run and the JSON run that `fioscope parse` reports must agree field by
# field, within what terse prints (integer usec, %f, %3.2f, integer KiB).
# usage: terse_json_agree.py FIOSCOPE_PARSE_JSON...
import json
import sys

fails = []
subusec = []  # latencies whose terse percentiles are all 0 (under 1 usec)


def near(where, t, j, tol):
    if t is None or j is None or abs(t - j) > tol:
        fails.append(f"{where}: terse {t!r} json {j!r} (tolerance {tol})")


def lat_agree(where, t, j, jp_from=None):
    """jp_from: the JSON latency whose percentiles terse printed (None: j's own)."""
    t, j = t or {}, j or {}
    for k in ("min", "max"):
        near(f"{where}.{k}", t.get(k), j.get(k), 1000)  # terse: integer usec
    for k in ("mean", "stddev"):
        near(f"{where}.{k}", t.get(k), j.get(k), 10.001)  # old JSON: 2 decimals of usec
    tp, jp = t.get("percentile", {}), (j if jp_from is None else (jp_from or {})).get("percentile", {})
    if set(tp) != set(jp):
        fails.append(f"{where}.percentile keys: terse {sorted(tp)} json {sorted(jp)}")
    # terse prints a percentile as whole usec cut down (ns / 1000): its value is the
    # floor of JSON's, and a run under 1 usec prints 0 ("below 1 usec") where JSON
    # says e.g. 10 ns; such a list is real, not fio's no-samples placeholder
    for k in tp:
        if jp.get(k) is None or tp[k] != jp[k] // 1000 * 1000:
            fails.append(f"{where}.percentile.{k}: terse {tp[k]!r} is not JSON's {jp.get(k)!r} cut to usec")
    if tp and not any(tp.values()):
        subusec.append(where)


def dir_agree(where, t, j, lat_pct=False):
    near(f"{where}.io_bytes", t.get("io_bytes"), j.get("io_bytes"), 1023)
    for k in ("bw", "runtime", "bw_min", "bw_max", "bw_samples", "iops_min", "iops_max", "iops_samples"):
        if k in t:
            near(f"{where}.{k}", t[k], j.get(k), 0)
    near(f"{where}.bw_bytes", t.get("bw_bytes"), j.get("bw_bytes"), 1023)
    near(f"{where}.iops", t.get("iops"), j.get("iops"), 1)  # terse: integer
    for k in ("bw_mean", "bw_dev", "iops_mean", "iops_stddev"):
        if k in t:
            near(f"{where}.{k}", t[k], j.get(k), 1e-6 * max(1, abs(t[k])))
    # fio 3.33 works the share of the group's bandwidth out apart for each format: its
    # terse said 88.342539% where its JSON said 88.339458 for one run
    # its text and JSON pass the mean bandwidth through an int (convert_agg_kbytes_percent):
    # from 2^31 KiB/s on (the null engine) they print a negative share; terse does not
    if "bw_agg" in t and not (j.get("bw_agg", 0) < 0 and j.get("bw_mean", 0) >= 2**31):
        near(f"{where}.bw_agg", t["bw_agg"], j.get("bw_agg"), 1e-4 * max(1, abs(t["bw_agg"])))
    # terse has one percentile list, clat's slots: fio fills them with lat's when the
    # job set lat_percentiles (stat.c), and never with slat's
    lat_agree(f"{where}.slat_ns", t.get("slat_ns"), j.get("slat_ns"), {})
    # (lat_percentiles=1 with disable_lat=1: no lat list anywhere, terse's is clat's)
    lat_list = lat_pct and bool(j.get("lat_ns", {}).get("percentile"))
    lat_agree(f"{where}.clat_ns", t.get("clat_ns"), j.get("clat_ns"), j.get("lat_ns") if lat_list else None)
    lat_agree(f"{where}.lat_ns", t.get("lat_ns"), j.get("lat_ns"), {} if lat_list else None)


def job_agree(where, t, j):
    for k in ("jobname", "groupid", "error", "ctx", "majf", "minf", "total_err", "first_error"):
        near(f"{where}.{k}", 0, 0, 0) if t.get(k) == j.get(k) else fails.append(f"{where}.{k}: {t.get(k)!r} vs {j.get(k)!r}")
    for k in ("usr_cpu", "sys_cpu"):
        near(f"{where}.{k}", t.get(k), j.get(k), 5e-6)  # JSON keeps float precision
    for k, v in t.get("iodepth_level", {}).items():
        near(f"{where}.iodepth_level.{k}", v, j.get("iodepth_level", {}).get(k), 0.05)  # %3.1f
    ns_sum = sum(j.get("latency_ns", {}).values())
    for k, v in t.get("latency_us", {}).items():
        want = j.get("latency_us", {}).get(k, 0) + (ns_sum if k == "2" else 0)  # terse folds ns into 2us
        near(f"{where}.latency_us.{k}", v, want, 0.005 + 0.005 * len(j.get("latency_ns", {})))
    for k, v in t.get("latency_ms", {}).items():
        near(f"{where}.latency_ms.{k}", v, j.get("latency_ms", {}).get(k), 0.005)
    lat_pct = str(j.get("job options", {}).get("lat_percentiles", "0")) not in ("0", "false")
    # before 3.27 (5cb8a8cd) unified_rw_reporting=1 printed its one block in read's
    # place, write and trim blocks of zeros after it: a record that reads as a read job
    old_mixed = "mixed" in j and "read" not in j and "read" in t and "mixed" not in t
    for d in ("read", "write", "trim", "mixed"):
        if old_mixed and d in ("write", "trim") and d not in j:
            if t.get(d, {}).get("io_bytes"):
                fails.append(f"{where}.{d}: bytes in terse's {d} block beside unified_rw_reporting=1's")
        elif d in t:
            dir_agree(f"{where}.{d}", t[d], j.get("mixed" if old_mixed and d == "read" else d, {}), lat_pct)
        elif d == "mixed" and j.get(d, {}).get("total_ios") and not old_mixed:  # unified_rw_reporting's block
            fails.append(f"{where}.{d}: in JSON, not in terse")


def agree(path):
    out = json.load(open(path))
    terse = [r for r in out["runs"] if r["source"]["format"] == "terse"]
    js = [r for r in out["runs"] if r["source"]["format"] == "json"]
    if len(terse) != 1 or len(js) != 1:
        fails.append(f"want one terse and one JSON run, got {len(terse)} and {len(js)}")
        return None
    t, j = terse[0], js[0]
    if t["source"]["fio_version"] != j["source"]["fio_version"]:
        fails.append(f"fio_version {t['source']['fio_version']} vs {j['source']['fio_version']}")
    if len(t["jobs"]) != len(j["jobs"]):
        fails.append(f"jobs {len(t['jobs'])} vs {len(j['jobs'])}")
    for i, (tj, jj) in enumerate(zip(t["jobs"], j["jobs"])):
        job_agree(f"job{i}", tj, jj)
    for i, (td, jd) in enumerate(zip(t["disk_util"], j["disk_util"])):
        for k, v in td.items():
            if k == "util":
                near(f"disk{i}.util", v, jd.get(k), 0.005)  # terse %3.2f
            elif jd.get(k) != v:
                fails.append(f"disk{i}.{k}: {v!r} vs {jd.get(k)!r}")
    return t["source"]["fio_version"]


def main():
    bad = 0
    want_subusec = any("subusec" in p for p in sys.argv[1:])
    seen_subusec = False
    for path in sys.argv[1:]:
        fails.clear()
        version = agree(path)
        seen_subusec = seen_subusec or ("subusec" in path and bool(subusec))
        for f in fails[:30]:
            print(f"{path}: {f}")
        if fails:
            print(f"{path}: {len(fails)} disagreements")
            bad += 1
        else:
            print(f"ok: terse and JSON agree ({version})" + (f", under 1 usec: {', '.join(subusec)}" if subusec else ""))
        subusec.clear()
    if want_subusec and not seen_subusec:
        print("FAIL: no fixture has a percentile list under 1 usec (null-trimwrite-subusec-v4)")
        bad += 1
    sys.exit(1 if bad else 0)


main()
