/* SPDX-License-Identifier: MIT */
/* Differential libFuzzer target: the same bytes through a parser with the fast path
 * (fastline.c lexers, the pre-scan, the fast JSON reader) and one without it
 * (FIOSCOPE_NO_FASTPATH: the grammar path, the reference). Their runs, written as
 * contract JSON with the damage report and labels, must be byte-identical; any
 * difference aborts with both texts. */
#include "fioscope/buf.h"
#include "fioscope/model_json.h"
#include "fioscope/parse.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

/* Everything a run shows in any output: its JSON (with the damage report) and the
 * label of each job under every label policy. */
static bool diff_sink(void *ctx, fsc_run *run)
{
    fsc_buf *out = ctx;
    fsc_jw w;
    fsc_jw_init(&w, out, false, false);
    fsc_json_opts o = {.damage = true};
    fsc_model_write_run(&w, run, &o);
    fsc_buf_putc(out, '\n');
    for (size_t i = 0; i < run->n_jobs; i++)
        for (int from = FSC_LABEL_HEADING; from <= FSC_LABEL_CONTEXT; from++) {
            char *label = fsc_job_label(run, &run->jobs[i], (fsc_label_from)from);
            fsc_buf_puts(out, label ? label : "(null)");
            fsc_buf_putc(out, '\n');
            free(label);
        }
    fsc_run_free(run);
    return true;
}

/* The two parsers: with the fast path and without it. */
static fsc_parser *diff_parser(bool fast)
{
    fsc_buf err = {0};
    if (!fast)
        setenv("FIOSCOPE_NO_FASTPATH", "1", 1);
    fsc_parser *p = fsc_parser_new(NULL, &err);
    unsetenv("FIOSCOPE_NO_FASTPATH");
    fsc_buf_free(&err);
    if (!p)
        abort();
    return p;
}

static fsc_parser *fast_parser, *slow_parser;

/* Parse data with both (checked: the fast one as a piece of a text found
 * FSC_TEXT_NORMAL whole, fsc_doc.checked; the other as any text, but with the fast
 * path too: the two ways of the pre-scan); returns whether the outputs are identical.
 * first_line: where the document starts in its file (pieces of a huge file). */
static bool parses_same(const char *name, const uint8_t *data, size_t size, uint32_t first_line, bool checked)
{
    if (!fast_parser) {
        fast_parser = diff_parser(true);
        slow_parser = diff_parser(false);
    }
    fsc_doc doc = {"fuzz", NULL, (const char *)data, size, first_line, 0, NULL, false, FSC_ENC_UTF8, checked};
    fsc_doc plain = doc;
    plain.checked = false;
    fsc_buf a = {0}, b = {0};
    size_t na = 0, nb = 0;
    fsc_status sa = fsc_parse_doc(fast_parser, &doc, diff_sink, &a, &na);
    fsc_status sb = fsc_parse_doc(checked ? fast_parser : slow_parser, &plain, diff_sink, &b, &nb);
    bool same = sa == sb && na == nb && a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
    if (!same)
        fprintf(stderr, "%s on %s (%zu bytes):\n--- %s (%s, %zu runs)\n%s\n--- %s (%s, %zu runs)\n%s\n",
                checked ? "a checked piece differs" : "fast path differs", name, size,
                checked ? "asked line by line" : "grammar path", fsc_strerror(sb), nb, b.data ? b.data : "",
                checked ? "checked" : "fast path", fsc_strerror(sa), na, a.data ? a.data : "");
    fsc_buf_free(&a);
    fsc_buf_free(&b);
    return same;
}

/* Parse data with both; returns whether the outputs are identical (on a difference
 * the two texts are printed to stderr, name naming the input). first_line: where
 * the document starts in its file (pieces of a huge file). */
static bool fastpath_same(const char *name, const uint8_t *data, size_t size, uint32_t first_line)
{
    return parses_same(name, data, size, first_line, false);
}

/* fsc_plain_check's verdict on text[0, n) judged in parts (a reader of a file), a
 * part ending after every `every` lines, or, with every 0, at the line ends the
 * xorshift state *x picks; simple_too: asked for FSC_TEXT_SIMPLE too. */
static fsc_text_kind kind_in_parts(const char *text, size_t n, size_t every, uint64_t *x, bool simple_too)
{
    fsc_plain_check *c = fsc_plain_check_new(simple_too);
    if (!c)
        abort();
    size_t from = 0, lines = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] != '\n')
            continue;
        lines++;
        bool end_part = every ? lines % every == 0 : ((*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17) % 5) == 0;
        if (!end_part)
            continue;
        if (!fsc_plain_check_lines(c, text + from, i + 1 - from)) {
            fsc_plain_check_free(c);
            return FSC_TEXT_MIXED;
        }
        from = i + 1;
    }
    return fsc_plain_check_end(c, text + from, n - from);
}

/* The verdict in parts is the verdict on the whole, however the text is cut into
 * lines: every line a part, a few lines a part, one part, parts at random; plain
 * (fsc_text_is_plain_fio) alike whether a simple text is asked for or not. Returns
 * how many of the 16 ways differ (each is printed, name naming the input); *plain:
 * the whole's verdict. */
static size_t plain_parts_differ(const char *name, const char *text, size_t n, bool *plain)
{
    static const size_t every[] = {1, 2, 3, 7, 64, 100000, 0, 0};
    bool whole = fsc_text_is_plain_fio(text, n);
    fsc_plain_check *one = fsc_plain_check_new(true);
    if (!one)
        abort();
    fsc_text_kind whole_kind = fsc_plain_check_end(one, text, n);
    size_t differ = 0;
    if (fsc_text_kind_plain(whole_kind) != whole) {
        differ++;
        fprintf(stderr, "%s (%zu bytes): plain %d whole, kind %d\n", name, n, whole, (int)whole_kind);
    }
    uint64_t x = 0x9E3779B97F4A7C15ULL ^ n;
    for (size_t k = 0; k < 2 * sizeof every / sizeof every[0]; k++) {
        bool simple_too = k % 2;
        fsc_text_kind want = simple_too || whole ? whole_kind : FSC_TEXT_MIXED;
        fsc_text_kind got = kind_in_parts(text, n, every[k / 2], &x, simple_too);
        if (got != want) {
            differ++;
            fprintf(stderr, "%s (%zu bytes): kind %d whole, %d in parts of %zu lines%s\n", name, n, (int)want,
                    (int)got, every[k / 2], simple_too ? " (simple too)" : "");
        }
    }
    *plain = whole;
    return differ;
}

/* Does a run start with the line at s[0, n) (a job definition, "name: (g=0): rw=...",
 * as the reader that cuts a plain text into pieces sees one)? */
static bool run_starts(const char *s, size_t n)
{
    const char *nl = memchr(s, '\n', n);
    size_t len = nl ? (size_t)(nl - s) : n;
    for (size_t i = 0; i + 5 <= len && s[i] != ' '; i++)
        if (i > 0 && !memcmp(s + i, ": (g=", 5))
            return true;
    return false;
}

/* A text found FSC_TEXT_NORMAL whole reads the same as a checked piece, whole and
 * cut where its reader cuts it: from each of its first runs to the end, and from its
 * start to each of them. Returns how many ways differ. */
static size_t checked_differ(const char *name, const char *text, size_t n)
{
    if (fsc_text_kind_of(text, n) != FSC_TEXT_NORMAL)
        return 0;
    size_t differ = !parses_same(name, (const uint8_t *)text, n, 0, true);
    unsigned cuts = 0;
    for (size_t i = 1; i < n && cuts < 4; i++) {
        if (text[i - 1] != '\n' || !run_starts(text + i, n - i))
            continue;
        cuts++;
        differ += !parses_same(name, (const uint8_t *)text + i, n - i, 7, true);
        differ += !parses_same(name, (const uint8_t *)text, i, 0, true);
    }
    return differ;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    bool plain;
    if (!fastpath_same("fuzz input", data, size, 0) || plain_parts_differ("fuzz input", (const char *)data, size, &plain) ||
        checked_differ("fuzz input", (const char *)data, size))
        abort();
    return 0;
}
