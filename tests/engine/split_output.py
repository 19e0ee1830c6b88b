# SPDX-License-Identifier: MIT
# Split `fioscope run --output-format=normal,json` output into preamble, fio JSON, normal
# text, and read both back with `fioscope parse` (the engine writes fio's own JSON).
import json
import os
import subprocess
import sys


def split(text):
    lines = text.split("\n")
    start = lines.index("{")
    end = start + lines[start:].index("}")
    return "\n".join(lines[:start]), json.loads("\n".join(lines[start:end + 1])), "\n".join(lines[end + 1:])


def parse(text):
    """The contract run of a text (fio JSON or normal text) read by `fioscope parse -`."""
    out = subprocess.run([os.environ["FIOSCOPE"], "parse", "-"], input=text.encode(), stdout=subprocess.PIPE,
                         check=True).stdout
    runs = json.loads(out)["runs"]
    assert len(runs) == 1, "parse found %d runs" % len(runs)
    return runs[0]


def contract(fio_doc):
    """The engine's fio JSON as the contract run (exact numbers)."""
    return parse(json.dumps(fio_doc))


def unused(d):
    """A direction fio prints as all zeros."""
    if isinstance(d, dict):
        return all(unused(v) for v in d.values())
    return d == 0


if __name__ == "__main__":
    pre, doc, normal = split(open(sys.argv[1]).read())
    json.dump(doc, sys.stdout)
