# SPDX-License-Identifier: MIT
"""What the damage scripts share: fioscope's runs of a file, the numbers of runs that
must survive a kind of damage (jobs, groups, disk stats: not a paste's context or
label), and the texts of the version battery (fio 2.0.15 to 3.33) in the corpus."""
import json
import os
import subprocess


def parse(fioscope, path):
    out = subprocess.run([fioscope, "parse", "--jsonl", path], capture_output=True, text=True)
    return [o for o in map(json.loads, out.stdout.splitlines()) if "jobs" in o]


def numbers(runs):
    return json.dumps([{k: r.get(k) for k in ("jobs", "groups", "disk_util")} for r in runs], sort_keys=True)


def battery_texts(corpus):
    """The battery's texts, by version folder (the oracle folder left out)."""
    folders = sorted(d for d in os.listdir(corpus) if d.startswith("fio-") and not d.endswith("oracle"))
    return [[os.path.join(corpus, d, f) for f in sorted(os.listdir(os.path.join(corpus, d))) if f.endswith(".txt")]
            for d in folders]


def leaves(o, pre=""):
    """(path, value) of every leaf of a run's numbers ("/0/jobs/0/read/iops")."""
    if isinstance(o, dict):
        for k, v in o.items():
            yield from leaves(v, pre + "/" + k)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from leaves(v, pre + "/" + str(i))
    else:
        yield pre, o
