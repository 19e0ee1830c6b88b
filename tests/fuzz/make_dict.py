#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Build libFuzzer dictionaries from the grammars (grammars/*.json).

    tests/fuzz/make_dict.py [GRAMMAR_DIR] OUT_DIR

writes OUT_DIR/fuzz_parse.dict, fuzz_json.dict, fuzz_terse.dict and fuzz_jobfile.dict:
- the literal words of every rule: its lead words and needle, and the literal runs of
  its PCRE2 pattern ("IOPS=", "clat percentiles", "th=[", "(groupid=") and of the
  sample lines' keys ("BW=", "ios=");
- fio's JSON names (every field the terse layout maps to, as "name" and "name":),
  for the JSON reader; the terse layout's version heads ("3;fio-3.33;") and units;
- the job options the grammars know (rw=, bs=, ioengine=, iodepth=, numjobs=...) and
  job file syntax, for the engine's job file reader.
Each entry is written once, escaped the way libFuzzer reads dictionaries.
"""
import glob
import json
import os
import re
import sys


def escape(s):
    out = []
    for b in s.encode("utf-8"):
        c = chr(b)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= b < 0x7F:
            out.append(c)
        else:
            out.append("\\x%02X" % b)
    return '"' + "".join(out) + '"'


# PCRE2 syntax → what is left of a pattern's literal text between its syntax
CLASS = re.compile(r"\[(?:\\.|[^\]])*\]")
GROUP_OPEN = re.compile(r"\(\?(?:<[A-Za-z_][A-Za-z0-9_]*>|:|=|!|<=|<!|i)")
ESC_CLASS = re.compile(r"\\[dDsSwWbBAzZ]")


def literals(pattern):
    """Literal runs of a PCRE2 pattern (2 characters or more)."""
    p = CLASS.sub("\0", pattern)
    p = GROUP_OPEN.sub("\0", p)
    p = ESC_CLASS.sub("\0", p)
    p = re.sub(r"\{\d+(?:,\d*)?\}", "\0", p)
    runs, cur, i = [], [], 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            cur.append(p[i + 1])
            i += 2
            continue
        if c in "\0()|^$.*+?":
            # a quantifier takes the last character back out of the literal run
            if c in "*+?" and cur and (i + 1 >= len(p) or p[i + 1] != "?"):
                cur.pop()
            if cur:
                runs.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        runs.append("".join(cur))
    return [r for r in (r.strip() if r.strip() else r for r in runs) if len(r) >= 2]


def grammar_words(gdir):
    words, keys = set(), set()
    for path in sorted(glob.glob(os.path.join(gdir, "fio-*.json"))):
        g = json.load(open(path, encoding="utf-8"))
        for name, rule in g.get("rules", {}).items():
            for w in rule.get("lead", []):
                words.add(w)
            if rule.get("needle"):
                words.add(rule["needle"])
            if rule.get("pattern"):
                words.update(literals(rule["pattern"]))
            for key in rule.get("kv", {}) if isinstance(rule.get("kv"), dict) else []:
                keys.add(key + "=")
        for s in g.get("samples", []):
            line = s.get("line", "") if isinstance(s, dict) else str(s)
            for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_ ]*[=:]", line):
                keys.add(m.group().strip())
            for m in re.finditer(r"\b\d+(?:\.\d+)?(?:th|%|[kKMGTP]i?B?(?:/s)?|[num]?sec|msec)\b", line):
                words.add(m.group())
    return words, keys


def terse_names(gdir):
    t = json.load(open(os.path.join(gdir, "terse.json"), encoding="utf-8"))
    names, units = set(), set()

    def walk(v):
        if isinstance(v, str):
            target, _, unit = v.partition(":")
            for part in re.split(r"[.]", target):
                if part and not part[0].isdigit() and not part.startswith(">="):
                    names.add(part)
            if unit:
                units.add(unit)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
    for key in ("direction", "direction_v5", "job", "disk", "disk_aggregate"):
        walk(t.get(key))
    return names, units, sorted(str(v) for v in t.get("versions", {})) if isinstance(t.get("versions"), dict) else []


def main():
    args = sys.argv[1:]
    gdir = args[0] if len(args) == 2 else os.path.join(os.path.dirname(__file__), "..", "..", "grammars")
    out = args[-1]
    os.makedirs(out, exist_ok=True)
    words, keys = grammar_words(gdir)
    names, units, versions = terse_names(gdir)
    json_names = {"jobs", "job options", "fio version", "client_stats", "disk_util", "global options",
                  "read", "write", "trim", "sync", "mixed", "percentile", "bins", "latency_ns",
                  "latency_us", "latency_ms", "iodepth_level", "iodepth_submit", "iodepth_complete",
                  "jobname", "groupid", "error", "hostname", "timestamp", "time"} | names
    common = words | keys | {"fio-3.33", "fio-2.1.10", "fio-2.0.15", "\n", "\r\n", "\t", "| ", ">", "> ",
                             "```", "=3D", "\xa0", "\ufeff", "\x1b[", "\u009b", "\u202e",
                             # terminal controls (terminal.c): codes, their visible forms, remains
                             "\x1b[0m", "\x1b[0K", "\x1b]0;", "\x07", "\b", "^[[", "^[[0m", "\u241b[", "[0m",
                             "[32m", "\ufffd[",
                             # JSON log lines (jsonlog.c): Docker's, a shipper's, Ansible's
                             '{"log":"', '\\n","stream":"stdout"}', '"message": "', '"msg":"', '] => {"stdout": "',
                             "\\n", "\\u001b[",
                             # string literals (strlit.c): Python's bytes, dicts, lists; escapes
                             "b'", "\\n'", "', '", "{'stdout': '", "['", "']", "\\x1b[", "\\xc2\\xb5", "\\r\\n",
                             "\\'", '\\"', "\\\\", "\\ud83d\\ude00", "\\033[", ' output="',
                             # typography (typography.c): quotes, primes, dashes, an ellipsis, (R)
                             "\u201c", "\u201d", "\u2033", "\u2018", "\u2019", "\u2013", "\u2014", "\u2212",
                             "\u2026", "=\u00ae ", "fio \u2013", "\u201d : ", "\u00ab\u00a0",
                             # Markdown escapes (normalize.c md_unescape), cut lines (cutline.c)
                             "\\[", "\\]", "\\|", "\\_", "\\\n", "\u2026\n", "...\n",
                             # CSV exports (csvlog.c), PDF pages (pages.c)
                             ',"', '""', '",', ';"', '\t"', "time,host,message\n", "\f", "Page 2 of 9\n\f",
                             # Python's dicts (pydict.c), runs side by side (sidebyside.c), labels
                             "{'fio version': '", "'jobname': '", "None", "True", "\t      |\t", "\t\t\t\t",
                             "\nBefore:\n", "\nAfter:\n",
                             # XML documents (normalize.c html_tag)
                             "<w:p>", "</w:t></w:r></w:p>", "<![CDATA[", "]]>", "<text:p>"}
    dicts = {
        "fuzz_parse": common | {'"%s":' % n for n in json_names} | {"{", "}", "[", "]", "3;fio-3.33;", ";"},
        "fuzz_json": {'"%s"' % n for n in json_names} | {'"%s":' % n for n in json_names} |
                     {"{", "}", "[", "]", ":", ",", "null", "true", "false", "1e308", "-0", "\\u0000",
                      "\\ud800", '"99.000000":', '"fio-3.33"', "1.7976931348623157e308", "18446744073709551616"},
        "fuzz_terse": {";", ";;", "%", "%=", "3;fio-3.33;", "2;fio-2.1.10;", "4;fio-3.33;", "5;fio-3.33;",
                       "fio-3.33", "0%=0", "99.000000%=", "100.0%", ">=64"} | set(versions) |
                      {u for u in units if u},
        "fuzz_jobfile": {"[global]", "[job]", "\n[", "]\n", "=", ";", "#", "\n", " = ", "${", "}"} |
                        {k for k in keys if k.endswith("=")} |
                        {"%s=" % o for o in ("name", "filename", "directory", "size", "filesize", "rw",
                                             "readwrite", "rwmixread", "rwmixwrite", "bs", "blocksize",
                                             "ioengine", "iodepth", "direct", "buffered", "numjobs",
                                             "runtime", "timeout", "time_based", "ramp_time", "loops",
                                             "fsync", "group_reporting", "stonewall", "new_group",
                                             "percentile_list", "kb_base")} |
                        {"randread", "randwrite", "randrw", "psync", "libaio", "io_uring", "null",
                         "4k", "1m", "1g", "99.9:99.99", "nan", "inf", "18446744073709551615"},
    }
    for name, entries in dicts.items():
        path = os.path.join(out, name + ".dict")
        with open(path, "w", encoding="ascii") as f:
            f.write("# made by tests/fuzz/make_dict.py from grammars/*.json; do not edit\n")
            for e in sorted(e for e in entries if e and len(e.encode()) <= 64):
                f.write(escape(e) + "\n")
        print("%s: %d entries" % (path, len(entries)))


if __name__ == "__main__":
    main()
