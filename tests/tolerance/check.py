#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check fioscope against the tolerance cases: every NAME.txt of the cases folder is
parsed (parse --damage) and compared with NAME.expect.json:

  runs          the runs of the expected format, in order ("source": its keys' values): {"oracle": REF} is checked
                field by field against fio's JSON of that run (tests/oracle's rules;
                "skip": fields the damage destroyed on purpose; "groups"/"disks": false
                when the excerpt has none), {"jobs": [...]} by job name, dotted
                "values", "missing" values (dotted paths read as nothing) and "absent"
                directions; the run's own dotted "values" ("groups.0.read.io_bytes");
                "format" (default "normal")
  warnings      each {"contains", "line"?} is some run's warning
  no_warning    no warning contains these
  unknown_lines each is listed as unread by --damage
  input_error   the input's manifest entry (no runs) says this
  document      read this file (corpus:X, repo:X) instead of NAME.txt

usage: check.py FIOSCOPE CASES_DIR CORPUS REPO [NAME...]
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
import oracle_check as oc  # noqa: E402

exe, cases, corpus, repo = sys.argv[1:5]
only = set(sys.argv[5:])


def oracle_path(ref):
    kind, rest = ref.split(":", 1)
    return os.path.join(corpus if kind == "corpus" else repo, rest)


def graft(ours, theirs, skip):
    """Copy fio's value of every skipped field into ours: damage meant to lose them."""
    if isinstance(theirs, dict):
        for k, v in theirs.items():
            if k in skip:
                ours[k] = v
            elif isinstance(v, dict):
                graft(ours.setdefault(k, {}), v, skip)


def dotted(obj, path):
    """'write.clat_ns.percentile.99.000000' → the value (keys may hold dots); a
    number indexes a list ('read.prios.1.clat_ns.mean')."""
    parts = path.split(".")
    cur, i = obj, 0
    while i < len(parts):
        if isinstance(cur, list) and parts[i].isdigit() and int(parts[i]) < len(cur):
            cur, i = cur[int(parts[i])], i + 1
            continue
        if not isinstance(cur, dict):
            return None
        for j in range(len(parts), i, -1):
            key = ".".join(parts[i:j])
            if key in cur:
                cur, i = cur[key], j
                break
        else:
            return None
    return cur


def check_oracle(c, where, run, exp):
    fio = oc.modernize(oc.fio_json(oracle_path(exp["oracle"])))
    ver = oc.version_tuple(fio.get("fio version"))
    oc.LEGACY["on"] = ver < (2, 99, 0)
    oc.LEGACY["num6"] = ver < (2, 17, 0)
    fjobs = fio.get("jobs") or []
    if len(run["jobs"]) != len(fjobs):
        c.errors.append(f"{where}: {len(run['jobs'])} jobs, fio has {len(fjobs)}")
        return
    gopts = fio.get("global options", {})
    for i, (o, t) in enumerate(zip(run["jobs"], fjobs)):
        graft(o, t, set(exp.get("skip", [])))
        opts = dict(gopts)
        opts.update(t.get("job options", {}))
        kinds = {"clat_ns"}
        if opts.get("lat_percentiles") == "1":
            kinds = {"lat_ns"}
        oc.check_job(c, f"{where}.jobs[{i}]({t['jobname']})", o, t, kinds)
    if exp.get("disks", True):
        oc.check_disks(c, run.get("disk_util", []), fio.get("disk_util", []))
    if exp.get("groups", True) and not run.get("groups"):
        c.errors.append(f"{where}: no group summaries")


def check_jobs(c, where, run, exp):
    if len(run["jobs"]) != len(exp["jobs"]):
        c.errors.append(f"{where}: jobs {[j.get('jobname') for j in run['jobs']]}, want {len(exp['jobs'])}")
        return
    for i, (o, e) in enumerate(zip(run["jobs"], exp["jobs"])):
        w = f"{where}.jobs[{i}]"
        c.checked += 1
        if o.get("jobname") != e.get("jobname"):
            c.errors.append(f"{w}: jobname {o.get('jobname')!r}, want {e.get('jobname')!r}")
        for path, want in e.get("values", {}).items():
            got = dotted(o, path)
            c.checked += 1
            exact = isinstance(want, int) and abs(want) > 2 ** 53  # beyond double: to the last digit
            if isinstance(want, str):  # a job option
                bad = got != want
            else:
                bad = got is None or (got != want if exact else abs(got - want) > 1e-6 * max(1, abs(want)))
            if bad:
                c.errors.append(f"{w}.{path}: {got!r}, want {want!r}")
        for path in e.get("missing", []):  # a value the damage broke: not read at all
            c.checked += 1
            if dotted(o, path) is not None:
                c.errors.append(f"{w}.{path}: {dotted(o, path)!r}, want none")
        for d in e.get("absent", []):
            c.checked += 1
            dd = o.get(d) or {}
            if any(k not in ("total_ios", "short_ios", "drop_ios") and v for k, v in dd.items()):
                c.errors.append(f"{w}.{d}: should hold nothing, holds {sorted(dd)}")


def main():
    failed = total = 0
    names = sorted(n[:-len(".expect.json")] for n in os.listdir(cases) if n.endswith(".expect.json"))
    for name in names:
        if only and name not in only:
            continue
        exp = json.load(open(os.path.join(cases, name + ".expect.json")))
        doc_path = oracle_path(exp["document"]) if "document" in exp else os.path.join(cases, name + ".txt")
        out = subprocess.run([exe, "parse", "--damage", "-q", doc_path], capture_output=True, check=False)
        c = oc.Checker(name)
        try:
            doc = json.loads(out.stdout)
        except ValueError:
            c.errors.append(f"not JSON (exit {out.returncode}): {out.stderr[:200]!r}")
            doc = {"runs": [], "inputs": [{}]}
        want = exp.get("runs", [])
        fmt = (want[0].get("format", "normal") if want else None)
        runs = [r for r in doc["runs"] if fmt is None or r["source"]["format"] == fmt]
        if len(runs) != len(want) or (not want and doc["runs"]):
            c.errors.append(f"{len(doc['runs'])} runs ({[r['source']['first_line'] for r in doc['runs']]}), want {len(want)}")
        else:
            for k, (run, e) in enumerate(zip(runs, want)):
                if "oracle" in e:
                    check_oracle(c, f"run{k}", run, e)
                if "jobs" in e:
                    check_jobs(c, f"run{k}", run, e)
                for key, v in e.get("source", {}).items():
                    c.checked += 1
                    if run["source"].get(key) != v:
                        c.errors.append(f"run{k}.source.{key}: {run['source'].get(key)!r}, want {v!r}")
                for path, v in e.get("values", {}).items():  # the run's own: "groups.0.read.io_bytes"
                    c.checked += 1
                    got = dotted(run, path)
                    if got is None or abs(got - v) > 1e-6 * max(1, abs(v)):
                        c.errors.append(f"run{k}.{path}: {got!r}, want {v!r}")
        warnings = [w for r in doc["runs"] for w in r["warnings"]]
        for w in exp.get("warnings", []):
            c.checked += 1
            if not any(w["contains"] in x["message"] and w.get("line", x["line"]) == x["line"] for x in warnings):
                c.errors.append(f"no warning {w}; have {[(x['line'], x['message']) for x in warnings][:6]}")
        for s in exp.get("no_warning", []):
            c.checked += 1
            bad = [x for x in warnings if s in x["message"]]
            if bad:
                c.errors.append(f"unwanted warning: {bad[0]}")
        unknown = {l for r in doc["runs"] for l in (r.get("damage") or {}).get("unknown_lines", [])}
        for l in exp.get("unknown_lines", []):
            c.checked += 1
            if l not in unknown:
                c.errors.append(f"line {l} is not listed as unread (--damage lists {sorted(unknown)[:10]})")
        if "input_error" in exp:
            c.checked += 1
            err = (doc["inputs"][0] or {}).get("error") or ""
            if exp["input_error"] not in err:
                c.errors.append(f"input error {err!r}, want {exp['input_error']!r}")
        total += c.checked
        print(f"{'ok' if not c.errors else 'FAIL'}: {name}: {c.checked} checks")
        for e in c.errors[:20]:
            print("    " + e)
        failed += bool(c.errors)
    print(f"{len(names) - failed if not only else len(only) - failed} passed, {failed} failed ({total} checks)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
