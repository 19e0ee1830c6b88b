#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Terminal controls and log wrappers around fio's text: every fio normal text of the
version battery (2.0.15 to 3.33), damaged the ways terminals, CI systems, pastes and
log drivers leave it (colour codes, ESC shown or lost, JSON log lines, an Ansible
result) or kept as a program's string literal (Python's repr of bytes, a dict, a list
of lines; Go's %q in logfmt; a JSON member; on a web page; wrapped over lines),
typeset by a blog engine or escaped as Markdown, sliced from a UTF-16 file, kept in a
Jupyter notebook, exported as CSV, printed as a PDF, put in a Markdown table's cell,
or with its JSON shown as Python shows the dict, or kept in Word's or Confluence's
XML, or posted between a forum's BBCode or a wiki's tags typed glued to it, or framed in
a box a terminal program drew, or padded to a console's width, or numbered by grep -n,
must parse
to the same jobs, groups and disk stats as the text without them, and the command a CI
log echoes in colour (or an Ansible item holds beside the output, or a blog shows
typeset) must be found as the run's context.

usage: terminal.py FIOSCOPE CORPUS_DIR WORK_DIR
"""
import html
import json
import os
import quopri
import re
import subprocess
import sys
import textwrap

fioscope, corpus, work = sys.argv[1], sys.argv[2], sys.argv[3]
ESC = "\x1b"


def sgr(*codes):
    return ESC + "[" + ";".join(str(c) for c in codes) + "m"


# Each kind: lines -> lines. i is the line's index, so that kinds vary along the text.
def wrap_all(lines):
    """a wrapper that colours every line of fio's output"""
    return [sgr(32) + l + sgr(0) if l else l for l in lines]


def words(lines):
    """colour inside the lines: on the values and keys (a highlighter)"""
    out = []
    for i, l in enumerate(lines):
        if "=" in l and i % 2:
            k = l.index("=")
            l = l[:k] + sgr(1) + "=" + sgr(22) + l[k + 1:]
        if ":" in l and i % 3 == 0:
            l = l.replace(":", sgr(1, 36) + ":" + sgr(0), 1)
        out.append(l)
    return out


def gitlab(lines):
    """GitLab CI's raw trace: an erase-line code before lines, coloured sections and
    the echoed command"""
    head = ["\x1b[0KRunning with gitlab-runner 16.5.0 (853330f9)\x1b[0;m",
            "section_start:1700000000:step_script\r\x1b[0K\x1b[0K\x1b[36;1mExecuting \"step_script\" stage\x1b[0;m",
            "\x1b[32;1m$ fio --name=bench --rw=randread\x1b[0;m"]
    body = ["\x1b[0K" + l if i % 4 == 0 else l for i, l in enumerate(lines)]
    return head + body + ["section_end:1700000100:step_script\r\x1b[0K",
                          "\x1b[32;1mJob succeeded\x1b[0;m"]


def github(lines):
    """GitHub Actions' raw log: a timestamp on every line, the command echoed in
    colour, group markers"""
    head = ["##[group]Run fio --name=bench --rw=randread",
            "\x1b[36;1mfio --name=bench --rw=randread\x1b[0m",
            "shell: /usr/bin/bash -e {0}", "##[endgroup]"]
    return [f"2024-05-01T12:00:{i % 60:02d}.{i:07d}Z {l}" for i, l in enumerate(head + lines)]


def script(lines):
    """`script` of a terminal session: a coloured prompt with an OSC window title, a
    typing slip taken back with backspaces, CRLF line ends, a bell, cursor codes"""
    prompt = ("\x1b]0;user@host: ~/bench\x07\x1b[01;32muser@host\x1b[00m:\x1b[01;34m~/bench\x1b[00m$ "
              "fio --nmae\b\b\b\bname=bench --rw=randread\x07")
    body = [l + "\x1b[K" if i % 5 == 0 else l for i, l in enumerate(lines)]
    return [x + "\r" for x in ["Script started on 2024-05-01 12:00:00+00:00", prompt] + body +
            ["\x1b[?2004h" + "\x1b]0;user@host: ~\x07user@host:~$ exit", "Script done on 2024-05-01 12:01:00+00:00"]]


def caret(lines):
    """a paste where ESC shows as ^[ (cat -v, less, vim)"""
    return ["^[[1;32m" + l + "^[[0m" if l else l for l in lines]


def symbol(lines):
    """ESC shown as U+241B, as some viewers and converters print it"""
    return ["\u241b[33m" + l + "\u241b[0m" if l else l for l in lines]


def lost(lines):
    """ESC lost in the copy: the codes' remains around the text"""
    return ["[32m" + l + "[0m" if l else l for l in lines]


def qp_mail(lines):
    """a mail of coloured output, quoted-printable: ESC as =1B, '=' as =3D, long
    lines soft-broken"""
    body = quopri.encodestring("\n".join(wrap_all(lines)).encode("utf-8", "surrogateescape")).decode("ascii")
    return ["From: someone@example.org", "Subject: fio numbers", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable", ""] + body.split("\n")


def docker_json(lines):
    """Docker's json-file log: a JSON object per line; colour codes escaped as \\u001b"""
    return [json.dumps({"log": (sgr(32) + l + sgr(0) if i % 3 == 0 and l else l) + "\n", "stream": "stdout",
                        "time": "2024-05-01T12:00:%02d.%09dZ" % (i % 60, i)}, separators=(",", ":"))
            for i, l in enumerate(lines)]


def shipper(lines):
    """a log shipper's JSON lines (ECS-like: the timestamp first, the text in "message")"""
    return [json.dumps({"@timestamp": "2024-05-01T12:00:%02d.000Z" % (i % 60), "log.level": "info",
                        "message": l, "host": {"name": "bench-1"}}) for i, l in enumerate(lines)]


def ansible(lines):
    """an Ansible command task's result: the output as one JSON string (and again as
    "stdout_lines"), after the host"""
    res = {"changed": True, "cmd": ["fio", "--name=bench", "--rw=randread"], "rc": 0, "stderr": "",
           "stdout": "\n".join(lines), "stdout_lines": lines}
    return ["", "TASK [run fio] " + "*" * 40, "changed: [host1] => " + json.dumps(res), "",
            "PLAY RECAP " + "*" * 40, "host1 : ok=1 changed=1 unreachable=0 failed=0"]


def compose(lines):
    """docker compose: a coloured service prefix on every line"""
    return [sgr(36) + "bench-1  | " + sgr(0) + l for l in lines]


def text_of(lines):
    return "\n".join(lines) + "\n"


def py_bytes(lines):
    """IPython's value of subprocess.run(...).stdout: a bytes literal (UTF-8 as \\x escapes)"""
    return ["In [2]: subprocess.run(['fio', 'job.fio'], capture_output=True).stdout",
            repr(text_of(lines).encode("utf-8", "surrogateescape")), ""]


def py_log(lines):
    """a script's log line "fio output: %r" of a Windows run's text (CRLF inside)"""
    raw = text_of(lines).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return ["2024-05-01 12:00:00,000 INFO bench: fio output: %r" % raw.replace("\n", "\r\n")]


def ansible_item(lines):
    """an Ansible loop item's result, printed as a Python dict: the command and the
    output as strings, the output again as a list of lines"""
    raw = text_of(lines).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    item = {"cmd": "cd /bench\nfio --name=bench --rw=randread\n", "stdout": raw.rstrip("\n"), "rc": 0,
            "stdout_lines": raw.rstrip("\n").split("\n"), "item": "bench-1"}
    return ["TASK [run fio] " + "*" * 40, "ok: [host1] => (item=%r)" % (item,)]


def py_lines(lines):
    """print(f.readlines()): a Python list of the lines, each with its newline"""
    raw = text_of(lines).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return ["lines of job.log:", repr(raw.splitlines(keepends=True))]


def logfmt(lines):
    """a Go program's logfmt line: output=%q (JSON-like escapes)"""
    raw = text_of(lines).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return ['time="2024-05-01T12:00:00Z" level=info msg="fio finished" output=%s rc=0' % json.dumps(raw)]


def json_member(lines):
    """a pretty-printed JSON result holding the output as one string"""
    raw = text_of(lines).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return json.dumps({"cmd": "fio job.fio", "stdout": raw, "rc": 0}, indent=2).split("\n")


def web_page(lines):
    """a web page's code block showing the bytes literal: its quotes as entities"""
    lit = repr(text_of(lines).encode("utf-8", "surrogateescape"))
    return ["<html><body><p>What fio printed:</p>", "<pre><code>&gt;&gt;&gt; p.stdout",
            html.escape(lit, quote=True) + "</code></pre>", "</body></html>"]


def mail_wrapped(lines):
    """the bytes literal pasted in a mail, word-wrapped at 76 columns (the spaces at the
    breaks dropped)"""
    lit = repr(text_of(lines).encode("utf-8", "surrogateescape"))
    return ["Subject: fio numbers", "", "What p.stdout printed:", ""] + textwrap.wrap(lit, 76)


def hard_cut(lines):
    """a script's log line of the output, cut every 80 columns (a terminal's copy)"""
    raw = text_of(lines).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    s = "2024-05-01 12:00:00,000 INFO bench: fio output: %r" % raw
    return [s[i:i + 80] for i in range(0, len(s), 80)]


def notebook(lines):
    """a Jupyter notebook that ran fio in a cell: its output a JSON list of the lines,
    pretty-printed a string a line"""
    body = [json.dumps(l + "\n") for l in lines]
    return (['{', ' "cells": [', '  {', '   "cell_type": "code",', '   "outputs": [', '    {',
             '     "name": "stdout",', '     "output_type": "stream",', '     "text": ['] +
            ['      ' + b + (',' if i + 1 < len(body) else '') for i, b in enumerate(body)] +
            ['     ]', '    }', '   ],', '   "source": [', '    "!' + command + '"', '   ]', '  }', ' ]', '}'])


def typeset(lines):
    """a blog engine's typography on the command and the output it shows (WordPress's
    wptexturize, SmartyPants): curly quotes and primes, an en dash for "--", an
    ellipsis for "..." """
    out = []
    for l in ["$ " + command] + lines:
        l = l.replace("---", "\u2014").replace("--", "\u2013").replace("...", "\u2026")
        l = re.sub(r'(?<=\d)"', "\u2033", l)
        l = re.sub(r'(^|[\s(\[{])"', "\\1\u201c", l).replace('"', "\u201d")
        out.append(l)
    return out


def typeset_fr(lines):
    """a French blog's typography: « » with no-break spaces inside, an en dash for "--" """
    out = []
    for l in ["$ " + command] + lines:
        l = l.replace("--", "\u2013")
        l = re.sub(r'(^|[\s(\[{])"', "\\1\u00ab\u00a0", l).replace('"', "\u00a0\u00bb")
        out.append(l)
    return out


def md_escaped(lines):
    """a converter's Markdown of the output as paragraphs (pandoc, turndown, Reddit's
    editor): ASCII punctuation escaped with a backslash, a backslash for each hard line
    break"""
    return [re.sub(r"([\\\[\]|*_<>#`])", r"\\\1", l) + ("\\" if l.strip() else "") for l in lines]


def utf16_slice(lines):
    """a slice of a PowerShell redirect: UTF-16 with CRLF, no byte order mark"""
    return ("\r\n".join(lines) + "\r\n").encode("utf-16-le", "surrogatepass")


def _csv(rows, **kw):
    import csv
    import io
    b = io.StringIO()
    w = csv.writer(b, **kw)
    for r in rows:
        w.writerow(r)
    return b.getvalue()


def csv_export(lines):
    """a log exported as CSV (Kibana, Splunk): a row a line, the text quoted only where it
    holds a comma or a quote mark (doubled inside)"""
    rows = [["time", "host", "message"]] + [["2024-03-01 10:00:%02d" % (i % 60), "node1", l] for i, l in enumerate(lines)]
    return _csv(rows, lineterminator="\n").rstrip("\n").split("\n")


def csv_cell(lines):
    """a spreadsheet's CSV (Excel's CRLF, ';' of a European locale) with the run's whole
    output in one cell"""
    rows = [["run", "host", "output"], ["1", "node1", "\n".join(lines)], ["2", "node2", "skipped"]]
    return _csv(rows, delimiter=";", lineterminator="\r\n").rstrip("\r\n").split("\n")


def pdf_text(lines):
    """pdftotext of a report: a footer with the page's number and a form feed before the
    next page's running header, every 40 lines"""
    out = []
    for i, l in enumerate(lines):
        if i and i % 40 == 0:
            out += ["", "        Page %d of %d" % (i // 40, len(lines) // 40 + 1), "\fStorage team \u2014 benchmark report", ""]
        out.append(l)
    return out


def md_table_cell(lines):
    """a wiki's or an issue's Markdown table with the output in one cell, lines broken by
    <br>, its pipes escaped"""
    return ["| host | output |", "|---|---|", "| node1 | " + "<br>".join(l.replace("|", "\\|") for l in lines) + " |"]


def _python_json(lines, show):
    """the text with its JSON document (fio's normal,json) shown as Python shows the dict"""
    t = "\n".join(lines)
    i = t.find("\n{\n")
    if i < 0:
        return lines
    d, e = json.JSONDecoder().raw_decode(t[i + 1:])
    return (t[:i + 1] + show(d) + t[i + 1 + e:]).split("\n")


def py_pprint(lines):
    """a notebook's pprint of json.load(): the JSON as a sorted, wrapped Python dict"""
    import pprint
    return _python_json(lines, lambda d: ">>> pprint(data)\n" + pprint.pformat(d, width=60))


def py_repr(lines):
    """a script's print(json.load(f)): the JSON as a Python dict on one line"""
    return _python_json(lines, lambda d: "data = " + repr(d))


def word_xml(lines):
    """Word's document.xml of a report with the output pasted in (a w:p a line, one line
    of XML)"""
    paras = "".join('<w:p><w:pPr><w:pStyle w:val="Code"/></w:pPr><w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>'
                    % html.escape(l, quote=False) for l in lines)
    return ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
            '<w:document xmlns:w="urn:w"><w:body><w:p><w:r><w:t>Results</w:t></w:r></w:p>' + paras + "</w:body></w:document>"]


def confluence(lines):
    """a Confluence page's storage format: the output in a code macro's CDATA section"""
    return ['<p>Results of the run:</p><ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[' + lines[0]] + \
        lines[1:-1] + [lines[-1] + "]]></ac:plain-text-body></ac:structured-macro><p>Next steps</p>"]


def forum(lines):
    """a forum post's BBCode, the tags typed glued to the first and last lines, in a quote"""
    return ["Here is what I get on the new pool:", "[quote=admin]", "[code]" + lines[0]] + lines[1:-1] + \
        [lines[-1] + "[/code][/quote]", "Any ideas?"]


def jira(lines):
    """a Jira comment's wiki markup: {code:bash} glued to the first line, {code} to the last"""
    return ["h3. Results", "{code:bash}" + lines[0]] + lines[1:-1] + [lines[-1] + "{code}"]


def _framed(lines, side, top, bottom, pad):
    w = max([len(l) for l in lines] + [10])
    gap = " " if pad else ""
    return [top[0] + top[1] * (w + 2 * len(gap)) + top[2]] + \
        [side + gap + l.ljust(w) + gap + side for l in lines] + \
        [bottom[0] + bottom[1] * (w + 2 * len(gap)) + bottom[2]]


def frame(lines):
    """a box a terminal program drew around the output (rich's panel): a side on the
    left and, after the spaces that pad each line to the box's width, on the right"""
    return _framed(lines, "\u2502", "\u256d\u2500\u256e", "\u2570\u2500\u256f", True)


def frame_ascii(lines):
    """the same box in ASCII ("+----+", "| ... |"), as tabulate's grid draws it"""
    return _framed(lines, "|", "+-+", "+-+", True)


def frame_heavy(lines):
    """a box of heavy lines with no space inside it: the longest line touches the sides"""
    return _framed(lines, "\u2503", "\u250f\u2501\u2513", "\u2517\u2501\u251b", False)


def console(lines):
    """a Windows console's copy: every line padded with spaces to the window's width
    (100), a longer one wrapped there"""
    out = []
    for l in lines:
        while len(l) > 100:
            out.append(l[:100])
            l = l[100:]
        out.append(l.ljust(100))
    return out


def grep_n(lines):
    """grep -n of the log: its line number and a ':' before every line"""
    return ["%d:%s" % (i + 1, l) for i, l in enumerate(lines)]


def _grep_context(lines, name):
    out = []
    for i, l in enumerate(lines):
        sep = ":" if "(g" in l or l.startswith("Run status") else "-"
        out.append("%s%d%s%s" % (name + sep if name else "", i + 1, sep, l))
    return out


def grep_context(lines):
    """grep -n -A of the job and group headers: "12:" on the lines that matched, "13-"
    on the lines after them"""
    return _grep_context(lines, "")


def grep_file_context(lines):
    """grep -H -n -A: the file's name before them too ("a.log:12:", "a.log-13-")"""
    return _grep_context(lines, "logs/node1.log")


kinds = {"wrap_all": wrap_all, "words": words, "gitlab": gitlab, "github": github, "script": script,
         "caret": caret, "symbol": symbol, "lost": lost, "qp_mail": qp_mail, "compose": compose,
         "docker_json": docker_json, "shipper": shipper, "ansible": ansible, "py_bytes": py_bytes,
         "py_log": py_log, "ansible_item": ansible_item, "py_lines": py_lines, "logfmt": logfmt,
         "json_member": json_member, "web_page": web_page, "mail_wrapped": mail_wrapped, "hard_cut": hard_cut,
         "typeset": typeset, "typeset_fr": typeset_fr, "md_escaped": md_escaped, "utf16_slice": utf16_slice,
         "notebook": notebook, "csv_export": csv_export, "csv_cell": csv_cell, "pdf_text": pdf_text,
         "md_table_cell": md_table_cell, "py_pprint": py_pprint, "py_repr": py_repr, "word_xml": word_xml,
         "confluence": confluence, "forum": forum, "jira": jira, "frame": frame, "frame_ascii": frame_ascii,
         "frame_heavy": frame_heavy, "console": console, "grep_n": grep_n, "grep_context": grep_context,
         "grep_file_context": grep_file_context}
command = "fio --name=bench --rw=randread"  # as context.c keeps it: no prompt
# kinds whose prefix names where the run ran: every job carries it as its hostname
hosts = {"grep_file_context": "logs/node1.log", "compose": "bench-1"}
command_kinds = ("gitlab", "github", "script", "ansible_item", "typeset", "typeset_fr")


def parse(path):
    out = subprocess.run([fioscope, "parse", "--jsonl", path], capture_output=True, text=True)
    runs = []
    for line in out.stdout.splitlines():
        o = json.loads(line)
        if "jobs" in o:
            runs.append(o)
    return runs


def numbers(runs, host=None):
    if host:
        runs = [dict(r, jobs=[dict(j, hostname=host) for j in r["jobs"]]) for r in runs]
    return json.dumps([{k: r.get(k) for k in ("jobs", "groups", "disk_util")} for r in runs], sort_keys=True)


texts = []
for d in sorted(os.listdir(corpus)):
    if not d.startswith("fio-") or d.endswith("oracle"):
        continue
    for f in sorted(os.listdir(os.path.join(corpus, d))):
        if f.endswith(".txt"):
            texts.append(os.path.join(corpus, d, f))

fail = checked = 0
os.makedirs(work, exist_ok=True)
for t in texts:
    lines = open(t, encoding="utf-8", errors="surrogateescape").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    want_runs = parse(t)
    if not want_runs:
        continue
    want = numbers(want_runs)
    for name, kind in kinds.items():
        path = os.path.join(work, f"{name}.txt")
        damaged = kind(lines)
        if isinstance(damaged, bytes):
            with open(path, "wb") as f:
                f.write(damaged)
        else:
            with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
                f.write("\n".join(damaged) + "\n")
        got_runs = parse(path)
        checked += 1
        if numbers(got_runs) != (numbers(want_runs, hosts[name]) if name in hosts else want):
            fail += 1
            print(f"FAIL: {t} damaged as {name}: {len(got_runs)} runs, {len(want_runs)} wanted")
            continue
        if name in command_kinds and got_runs and command not in got_runs[0].get("context", []):
            fail += 1
            print(f"FAIL: {t} damaged as {name}: context {got_runs[0].get('context')}, wanted {command!r} in it")
print(f"terminal: {checked} damaged texts compared, {fail} failed")
sys.exit(1 if fail else 0)
