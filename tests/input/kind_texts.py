#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write NAME.txt for each damage kind NAME of tests/damage/terminal.py: the kind
applied to the fio 3.33, 2.21 and 3.13 documents of the corpus in turn, until the text
holds SIZE bytes (the huge texts the input tests read in pieces).

usage: kind_texts.py SOURCE_DIR CORPUS SIZE NAME...
"""
import os
import sys


def docs_of(corpus):
    docs = []
    for d in ("fio-3.33", "fio-2.21", "fio-3.13"):
        for f in sorted(os.listdir(os.path.join(corpus, d))):
            if f.endswith(".txt") and not f.startswith("g_"):
                lines = open(os.path.join(corpus, d, f), encoding="utf-8",
                             errors="surrogateescape").read().split("\n")
                while lines and lines[-1] == "":
                    lines.pop()
                docs.append(lines)
    return docs


def kinds_of(source, corpus):
    terminal = os.path.join(source, "tests", "damage", "terminal.py")
    code = open(terminal).read()
    code = code[:code.index("texts = []")]  # the kinds, not the test
    argv, sys.argv = sys.argv, ["terminal.py", "fioscope", corpus, "."]
    g = {"__name__": "kinds"}
    exec(compile(code, terminal, "exec"), g)
    sys.argv = argv
    return g["kinds"]


def main():
    source, corpus, size, names = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    kinds, docs = kinds_of(source, corpus), docs_of(corpus)
    for name in names:
        parts, have, k = [], 0, 0
        while have < size:
            d = kinds[name](docs[k % len(docs)])
            b = d if isinstance(d, bytes) else ("\n".join(d) + "\n").encode("utf-8", "surrogateescape")
            parts.append(b)
            have += len(b)
            k += 1
        open(name + ".txt", "wb").write(b"".join(parts))


if __name__ == "__main__":
    main()
