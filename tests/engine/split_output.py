# SPDX-License-Identifier: MIT
# Split `fioscope run --output-format=normal,json` output into preamble, JSON, normal text.
import json
import sys


def split(text):
    lines = text.split("\n")
    start = lines.index("{")
    end = start + lines[start:].index("}")
    return "\n".join(lines[:start]), json.loads("\n".join(lines[start:end + 1])), "\n".join(lines[end + 1:])


if __name__ == "__main__":
    pre, doc, normal = split(open(sys.argv[1]).read())
    json.dump(doc, sys.stdout)
