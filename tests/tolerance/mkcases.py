#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Make the tolerance cases (issue #15) in cases/: each NAME.txt is a document shaped
like the real ones the issue describes (a test harness log, a script with the output
in comments, a Markdown or reST page, a mail, grep output, an elided JSON), made from
fio runs whose JSON fio wrote at the same time (the oracle files), and NAME.expect.json
says what fioscope must read from it: which runs (checked field by field against
fio's JSON by check.py), which warnings, which unread lines, which input note.

Run by hand (deterministic); the cases are committed.
usage: mkcases.py CORPUS_DIR REPO_DIR
"""
import json
import os
import sys

corpus, repo = sys.argv[1], sys.argv[2]
out = os.path.join(repo, "tests", "tolerance", "cases")
os.makedirs(out, exist_ok=True)


def oracle_path(ref):
    """corpus:X or repo:X → the file."""
    kind, rest = ref.split(":", 1)
    return os.path.join(corpus if kind == "corpus" else repo, rest)


def split_oracle(ref):
    """fio's normal text (lines around the JSON) and the JSON lines of an oracle file."""
    lines = open(oracle_path(ref), encoding="utf-8").read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("{"))
    end = next(i for i, l in enumerate(lines) if i > start and l == "}")
    text = lines[:start] + lines[end + 1:]
    while text and text[-1] == "":
        text.pop()
    while text and text[0] == "":
        text.pop(0)
    return text, lines[start:end + 1]


def results(ref):
    """Only the results part of the text (from the first job header on)."""
    text, _ = split_oracle(ref)
    k = next(i for i, l in enumerate(text) if "(groupid=" in l)
    return text[k:]


def write(name, lines, expect):
    with open(os.path.join(out, name + ".txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, name + ".expect.json"), "w", encoding="utf-8") as f:
        json.dump(expect, f, indent=1, sort_keys=True)
        f.write("\n")


MIX = "corpus:fio-3.33-oracle/libaio-mixed-2j.normal+json.txt"
PSYNC = "corpus:fio-3.33-oracle/psync-randread.normal+json.txt"
TWO = "corpus:fio-3.33-oracle/two-groups.normal+json.txt"
PCT = "corpus:fio-3.33-oracle/pctlist.normal+json.txt"
URING = "corpus:fio-3.33-oracle/uring-seq.normal+json.txt"
GROUPED = "corpus:fio-3.33-oracle/grouped-3j.normal+json.txt"
NULL = "corpus:fio-3.33-oracle/null-fast.normal+json.txt"
FSYNC = "corpus:fio-3.33-oracle/fsync-slow.normal+json.txt"
SAME4 = "repo:tests/tolerance/fixtures/same-name-4k.normal+json.txt"
SAME64 = "repo:tests/tolerance/fixtures/same-name-64k.normal+json.txt"
STOPPED = "repo:tests/tolerance/fixtures/interrupted-layout.normal+json.txt"

# ---- 1. prefixes learned per block ----

# an autotest-style harness log: stamp, level, source mark before every line of fio's
# stdout, the harness' own lines around it
text, _ = split_oracle(MIX)
doc = ["12:06:51 INFO | START\tfio.libaio\ttimestamp=1796000811",
       "12:06:51 DEBUG| Running '/usr/bin/fio --name=mix --rw=randrw --bs=4k --ioengine=libaio --iodepth=8 --numjobs=2'"]
for i, l in enumerate(text):
    doc.append("12:06:%02d DEBUG| [stdout] %s" % (52 + i // 40, l))
doc += ["12:07:03 INFO | \tGOOD\tfio.libaio\tcompleted successfully", "12:07:03 INFO | END GOOD"]
write("prefix_harness_log", doc, {"runs": [{"oracle": MIX}], "no_warning": ["assumed read", "unrecognized"]})

# a shell script with the output pasted as "# " comments, one line damaged
text, _ = split_oracle(PSYNC)
doc = ["#!/bin/bash", "# 4k random read on the scratch disk", "fio --name=rr4k --rw=randread --bs=4k \\",
       "    --ioengine=psync --size=64m --runtime=2 --time_based", "", "# Output:", "#"]
bad = None
for l in text:
    if "cpu" in l and bad is None:
        l = l.replace("usr=", "usr~~").replace("sys=", "sys~~")  # a line fio never wrote
        bad = len(doc) + 1
    doc.append(("# " + l) if l else "#")
doc += ["", "exit 0"]
write("prefix_shell_comments", doc, {"runs": [{"oracle": PSYNC, "skip": ["usr_cpu", "sys_cpu", "ctx", "majf", "minf"]}],
                                     "unknown_lines": [bad], "no_warning": ["assumed read"]})

# one source file, four comment styles, a run under each: separate runs
doc = ["/* Storage results for the build farm. */", ""]
expect = {"runs": []}
for mark, ref in (("//", TWO), ("--", PCT), (";", URING), ("REM", GROUPED), ("*", NULL)):
    text, _ = split_oracle(ref)
    doc += ["Results of the next run follow.", ""]
    doc += [(mark + " " + l) if l else mark for l in text]
    doc += [""]
    expect["runs"].append({"oracle": ref})
write("prefix_comment_styles", doc, expect)

# kubectl logs --prefix --timestamps: an RFC 3339 stamp, then the pod and container
text, _ = split_oracle(URING)
doc = []
for i, l in enumerate(text):
    doc.append("2026-11-30T02:47:%02d.%06dZ [pod/fio-bench-7d9f8c6b5-x2k9q/fio] %s" % (10 + i // 10, 123456 + i * 37, l))
write("prefix_kubectl", doc, {"runs": [{"oracle": URING}]})

# kernel log style: a stamp whose digits and padding change from line to line
text, _ = split_oracle(GROUPED)
doc = []
t = 8.5
for l in text:
    t = t * 1.37 + 0.0123
    doc.append("[%12.6f] %s" % (t % 100000, l))
write("prefix_dmesg_stamps", doc, {"runs": [{"oracle": GROUPED}]})

# the output kept in a Python list of strings (quote marks around each line)
text, _ = split_oracle(NULL)
doc = ["EXPECTED_OUTPUT = ["] + ['    "%s",' % l for l in text] + ["]"]
write("prefix_quoted_strings", doc, {"runs": [{"oracle": NULL}]})

# docker compose: service name and a bar
text, _ = split_oracle(FSYNC)
doc = ["Attaching to bench_fio_1"] + ["fio_1  | %s" % l for l in text] + ["bench_fio_1 exited with code 0"]
write("prefix_compose", doc, {"runs": [{"oracle": FSYNC}]})

# ---- 2. inline markup ----

text, _ = split_oracle(MIX)
doc = ["# NVMe tuning notes", "", "With `iodepth=8` the **write** side keeps up:", "", "```"]
for l in text:
    l = (l.replace("write: IOPS=6391", "write: **IOPS=6391**").replace("IOPS=15.0k", "*IOPS=15.0k*")
         .replace("BW=58.3MiB/s", "`BW=58.3MiB/s`").replace("in_queue=4802", "_in_queue=4802_")
         .replace("  cpu          :", "  <b>cpu</b>          :"))
    doc.append(l)
doc += ["```", "", "**Summary:** fine."]
write("markup_markdown_emphasis", doc, {"runs": [{"oracle": MIX}], "no_warning": ["unrecognized"]})

# reST: two runs of a job with the same name, each after prose and a "::" marker
doc = ["Block size", "==========", "", "First with 4k blocks (the summary lines are left out)::", ""]
first = split_oracle(SAME4)[0]
doc += ["    " + l if l else "" for l in first[:first.index("Run status group 0 (all jobs):")]]
doc += ["", "Then the same job with 64k blocks::", ""]
doc += ["    " + l if l else "" for l in results(SAME64)]
doc += ["", "The larger blocks win on bandwidth."]
write("markup_rest_same_name", doc, {"runs": [{"oracle": SAME4, "groups": False, "disks": False}, {"oracle": SAME64}]})

# AsciiDoc listing with a bold value and an italic one
text, _ = split_oracle(PCT)
doc = ["= Percentiles", "", "[source]", "----"]
for l in text:
    doc.append(l.replace("IOPS=", "*IOPS=").replace(", BW=", "*, BW=").replace("ctx=", "_ctx=").replace(", majf", "_, majf"))
doc += ["----"]
write("markup_asciidoc", doc, {"runs": [{"oracle": PCT}]})

# ---- 3. mail: quoted and hard-wrapped at 72 columns by the client ----

def word_wrap(l, w):
    if len(l) <= w:
        return [l]
    ind = len(l) - len(l.lstrip(" "))
    words, lines, cur = l.strip(" ").split(" "), [], " " * ind
    for wd in words:
        if cur.strip() and len(cur) + 1 + len(wd) > w:
            lines.append(cur)
            cur = wd
        else:
            cur = (cur + " " + wd) if cur.strip() else cur + wd
    lines.append(cur)
    return lines

text, _ = split_oracle(MIX)
doc = ["On Mon, Nov 30, 2026 at 02:50 someone wrote:", "> Here is what I get with the patch applied:", ">"]
for l in text:
    for p in word_wrap(l, 70):
        doc.append("> " + p if p else ">")
doc += ["", "Thanks, that looks fine."]
write("wrap_mail_quoted_72", doc, {"runs": [{"oracle": MIX}]})

# ---- 4. segmentation ----

# an attempt stopped by Ctrl-C during layout (a real fio 3.33 output), then the real run
stopped, _ = split_oracle(STOPPED)
text, _ = split_oracle(PSYNC)
doc = ["$ fio --name=lay --rw=read --bs=128k --size=3g"] + stopped + ["", "$ fio --name=rr4k --rw=randread --bs=4k --size=64m"] + text
write("segment_interrupted_then_run", doc,
      {"runs": [{"oracle": PSYNC}], "warnings": [{"line": 2, "contains": "a fio run without results (lines 2-10; fio: terminating on signal 2)"}]})

write("segment_interrupted_only", stopped, {"runs": [], "input_error": "line 1: a fio run without results (lines 1-9; fio: terminating on signal 2): left out"})

# two runs of one job name separated by a sentence (no "Run status" in the first)
a = [l for l in split_oracle(SAME4)[0]]
a = a[:a.index("Run status group 0 (all jobs):")]
b = results(SAME64)
write("segment_same_name_prose", a + ["And now with 64k blocks:"] + b,
      {"runs": [{"oracle": SAME4, "groups": False, "disks": False}, {"oracle": SAME64}]})

# an excerpt that starts inside the first job's read block: no job name, no read
text = results(MIX)
k = next(i for i, l in enumerate(text) if "clat percentiles" in l)
doc = ["...continuing from the previous message:"] + text[k + 2:]
write("segment_excerpt_mid_run", doc,
      {"runs": [{"jobs": [{"jobname": "", "absent": ["read"], "values": {"write.iops": 6391, "write.runtime": 1001,
                                                                         "write.clat_ns.percentile.99.000000": 4178000,
                                                                         "usr_cpu": 3.2, "ctx": 4321}},
                          {"jobname": "mix", "values": {"read.iops": 14900, "write.total_ios": 6444}}]}],
       "warnings": [{"contains": "job name unknown"}], "no_warning": ["assumed read"]})

# Disk stats left over from a run above the excerpt, then a whole run
doc = ["Disk stats (read/write):", "  nvme0n1: ios=1042/77, merge=0/3, ticks=311/20, in_queue=331, util=2.10%", ""] + split_oracle(PSYNC)[0]
write("segment_disk_leftover", doc, {"runs": [{"oracle": PSYNC}],
                                     "warnings": [{"line": 1, "contains": "Disk stats of a run whose results are not in the text (lines 1-2)"}]})

# fio's preamble alone (the job lines of a README): no run, and the input says so
text, _ = split_oracle(PSYNC)
write("segment_preamble_only", text[:3], {"runs": [], "input_error": "preamble without results"})

# ---- 5. grep output ----

refs = [("randread-qd1.log", PSYNC), ("seqread-1m.log", TWO), ("randrw-qd8.log", MIX), ("uring.log", URING)]
doc, jobs = ["$ grep -E 'IOPS|READ:|WRITE:' *.log"], []
for fname, ref in refs:
    t, js = split_oracle(ref)
    fio = json.loads("\n".join(js))
    for l in t:
        if "IOPS=" in l:
            doc.append("%s:%s" % (fname, l))
    j0 = fio["jobs"][0]
    vals = {}
    for d in ("read", "write"):
        if j0[d]["total_ios"]:
            vals[d + ".runtime"] = j0[d]["runtime"]
    jobs.append({"jobname": fname, "values": vals})
# a file with two jobs gives two lines with one name: the second is another job
jobs.insert(3, {"jobname": "randrw-qd8.log", "values": {}})
write("grep_file_prefixes", doc, {"runs": [{"jobs": jobs}], "no_warning": ["cannot be told apart"]})

# grep -A: the matching header line "a.log:rr4k: (groupid=..." keeps its "a.log:" (no
# prefix block takes it), the lines after it carry "a.log-": they are that job's lines,
# not a second job named "a.log", and the job is "rr4k" on host "a.log" (as grep -n's)
doc, jobs = ["$ grep -A4 groupid= *.log"], []
for fname, ref in (("randread-qd1.log", PSYNC), ("uring.log", URING)):
    t, js = split_oracle(ref)
    j0 = json.loads("\n".join(js))["jobs"][0]
    k = next(i for i, l in enumerate(t) if "(groupid=" in l)
    if len(doc) > 1:
        doc.append("--")
    doc.append("%s:%s" % (fname, t[k]))
    doc += ["%s-%s" % (fname, l) for l in t[k + 1:k + 5]]
    vals = {"hostname": fname}  # as printed: "IOPS=10.9k", "avg=88.63" usec
    for l in t[k + 1:k + 5]:
        if "IOPS=" in l:
            v = l.split("IOPS=")[1].split(",")[0]
            vals["read.iops"] = round(float(v[:-1]) * 1000) if v.endswith("k") else int(v)
        for kind in ("clat", "lat"):
            if l.strip().startswith(kind + " (usec)"):
                vals["read.%s_ns.mean" % kind] = round(float(l.split("avg=")[1].split(",")[0]) * 1000)
    jobs.append({"jobname": j0["jobname"], "values": vals})
write("grep_after_context", doc, {"runs": [{"jobs": jobs}], "no_warning": ["results without a job header line"]})

doc = ["# iodepth sweep: for d in 1 2 4 8 16; do echo -n \"$d \"; fio ... | grep 'read: IOPS'; done"]
for d, iops in ((1, "10.9k"), (2, "19.6k"), (4, "35.0k"), (8, "61.2k"), (16, "97.4k")):
    doc.append("%d  read: IOPS=%s, BW=%sMiB/s (1MB/s)(10MiB/10001msec)" % (d, iops, iops[:-1]))
write("grep_number_prefixes", doc,
      {"runs": [{"jobs": [{"jobname": str(d), "values": {"read.iops": v}} for d, v in
                          ((1, 10900), (2, 19600), (4, 35000), (8, 61200), (16, 97400))]}]})

doc = ["Three runs, trimmed:", ""]
for iops in ("10.9k", "12.1k", "11.7k"):
    doc.append("  read: IOPS=%s, BW=42.8MiB/s (44.8MB/s)(85.5MiB/2001msec)" % iops)
write("grep_bare_fragments", doc, {"runs": [], "input_error": "cannot be told apart"})

# ---- 6. JSON left out or cut off ----

_, js = split_oracle(MIX)
el, skip, depth = [], False, 0
for l in js:
    if not skip and ('"percentile" : {' in l or '"job options" : {' in l):
        el.append(l[:len(l) - len(l.lstrip())] + "...")
        skip, depth = True, 1
        continue
    if skip:
        depth += l.count("{") - l.count("}")
        skip = depth > 0
        continue
    el.append(l)
doc = ["## Raw output", "", "Percentiles trimmed for brevity:", "", "```json"] + el + ["```", "", "More soon."]
write("json_elided_markdown", doc,
      {"runs": [{"oracle": MIX, "format": "json", "skip": ["percentile"], "groups": False}],
       "warnings": [{"contains": "lines left out ('...') in jobs[0].read.clat_ns"}]})

cut = [i for i, l in enumerate(js) if '"jobname"' in l][1] + 45
write("json_cut_off", ["fio --output-format=json output, the rest was lost:"] + js[:cut],
      {"runs": [{"format": "json", "jobs": [{"jobname": "mix", "values": {"read.iops": 15021.978022}},
                                            {"jobname": "mix", "absent": ["write"]}]}],
       "warnings": [{"contains": "cut off in jobs[1]"}]})

# ---- 8. a 64-bit counter cut by a hard wrap: kept exact end to end ----

text = results(PSYNC)
doc = []
for l in text:
    if l.startswith("  cpu"):
        l = l.replace("ctx=10072", "ctx=18446744073709341660")
        k = l.index("ctx=") + 14
        doc += [l[:k], l[k:]]  # "...ctx=1844674407" / "3709341660, majf=0, minf=10"
    else:
        doc.append(l)
write("wrap_counter_64bit", doc, {"runs": [{"jobs": [{"jobname": "rr4k",
                                                      "values": {"ctx": 18446744073709341660, "minf": 10,
                                                                 "usr_cpu": 2.3}}]}]})

# ---- 9. fio's lines inside other formats that begin like fio's own (issue #16: the
# fast path's pre-scan must send them to normalizing as the grammar path does) ----

# grep -H '=' over a log of results only, from a file whose name begins with a word of
# fio's ("read.log:  read: IOPS=..."): every line has a '=' and starts with "read"
text, _ = split_oracle(PSYNC)
doc = ["read.log:" + l for l in results(PSYNC) if "=" in l]
# lines without a '=' are gone: the percentiles' title (so their rows), the group's and
# the disk stats' titles
write("grep_results_fio_word_name", doc,
      {"runs": [{"oracle": PSYNC, "skip": ["percentile"], "disks": False, "groups": False}]})

# a Jupyter notebook's output cell: fio's lines as JSON strings, each ending in "\n"
cell = {"cells": [{"cell_type": "code", "source": ["!fio job.fio"],
                   "outputs": [{"name": "stdout", "output_type": "stream",
                                "text": [l + "\n" for l in text]}]}]}
write("notebook_output_cell", json.dumps(cell, indent=1).split("\n"), {"runs": [{"oracle": PSYNC}]})

# A report as fio printed it (job names of 90 and 127 bytes: lines of 190) and, ten
# reports on, the same report cut every 72 columns (fold, a terminal): the cut
# names are joined by the width of the text around them, not by the widest line of
# the whole document (which the unwrapped report makes 190: the cut names were read
# as whole, 55 bytes of the 127)
LONG = "repo:tests/oracle/fixtures/long-job-names.normal+json.txt"
long_text, long_json = split_oracle(LONG)
long_names = [j["jobname"] for j in json.loads("\n".join(long_json))["jobs"]]
doc = long_text + [""]
for k in range(10):
    doc += split_oracle(PSYNC)[0] + [""]
for l in long_text:  # fold -w 72: cut wherever the width falls, in a word too
    doc += [l[k:k + 72] for k in range(0, len(l), 72)] or [""]
psync_name = json.loads("\n".join(split_oracle(PSYNC)[1]))["jobs"][0]["jobname"]
write("wrapped_names_far_from_long_lines", doc,
      {"runs": [{"jobs": [{"jobname": n} for n in long_names]}] + [{"jobs": [{"jobname": psync_name}]}] * 10 +
       [{"jobs": [{"jobname": n} for n in long_names]}]})

# ---- 7. kb_base=1000 in fio <= 2.16 text (the corpus documents are read in place) ----

def write_expect(name, expect):
    with open(os.path.join(out, name + ".expect.json"), "w", encoding="utf-8") as f:
        json.dump(expect, f, indent=1, sort_keys=True)
        f.write("\n")

# io= and bw= as printed, in 1000s; issued x 4096 agrees (437439, 29374, 169593 I/Os)
for ver, io, bw, iops in (("2.0.15", 1791800000, 895875000, 218719), ("2.1.10", 120316000, 59888000, 14621),
                          ("2.15", 694653000, 347326000, 84796)):
    write_expect("kb_base_1000_fio" + ver.replace(".", "_"),
                 {"document": "corpus:fio-%s/h_kb_base1000.txt" % ver,
                  "runs": [{"jobs": [{"jobname": "randread", "values": {"read.io_bytes": io, "read.bw_bytes": bw,
                                                                        "read.iops": iops}}]}],
                  "warnings": [{"line": 7, "contains": "KB read as 1000 bytes (kb_base=1000)"}]})

print("cases written to", out)
