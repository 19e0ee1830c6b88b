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

/* Parse data with both; returns whether the outputs are identical (on a difference
 * the two texts are printed to stderr, name naming the input). first_line: where
 * the document starts in its file (pieces of a huge file). */
static bool fastpath_same(const char *name, const uint8_t *data, size_t size, uint32_t first_line)
{
    static fsc_parser *fast, *slow;
    if (!fast) {
        fast = diff_parser(true);
        slow = diff_parser(false);
    }
    fsc_doc doc = {"fuzz", NULL, (const char *)data, size, first_line, 0, NULL};
    fsc_buf a = {0}, b = {0};
    size_t na = 0, nb = 0;
    fsc_status sa = fsc_parse_doc(fast, &doc, diff_sink, &a, &na);
    fsc_status sb = fsc_parse_doc(slow, &doc, diff_sink, &b, &nb);
    bool same = sa == sb && na == nb && a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
    if (!same)
        fprintf(stderr, "fast path differs on %s (%zu bytes):\n--- grammar path (%s, %zu runs)\n%s\n--- fast path (%s, %zu runs)\n%s\n",
                name, size, fsc_strerror(sb), nb, b.data ? b.data : "", fsc_strerror(sa), na, a.data ? a.data : "");
    fsc_buf_free(&a);
    fsc_buf_free(&b);
    return same;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (!fastpath_same("fuzz input", data, size, 0))
        abort();
    return 0;
}
