/* SPDX-License-Identifier: MIT */
/* fsc_parse_doc: the pipeline normalize → find JSON / terse / normal runs → label. */
#include "fioscope/parse.h"

#include "fastline.h"
#include "parse_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fsc_parser {
    fsc_parse_opts opts;
    fsc_grammar_set *grammars;
    fsc_fastpath *fast; /* NULL: grammar only (FIOSCOPE_NO_FASTPATH, grammar override) */
};

fsc_parser *fsc_parser_new(const fsc_parse_opts *opts, fsc_buf *err)
{
    fsc_parser *p = calloc(1, sizeof *p);
    if (!p) {
        fsc_buf_puts(err, "out of memory");
        return NULL;
    }
    if (opts)
        p->opts = *opts;
    p->grammars = fsc_grammars_load(err);
    if (!p->grammars) {
        free(p);
        return NULL;
    }
    p->fast = fsc_fastpath_new(p->grammars);
    return p;
}

void fsc_parser_free(fsc_parser *p)
{
    if (!p)
        return;
    fsc_fastpath_free(p->fast);
    fsc_grammars_free(p->grammars);
    free(p);
}

typedef struct doc_state {
    const fsc_parser *p;
    const fsc_doc *doc;
    const fsc_text *text;
    fsc_run_sink sink;
    void *ctx;
    size_t n_runs;
    bool stopped;
    fsc_run *held; /* the last run, held back in case the next is its other format */
} doc_state;

/* fsc_job_label (the label policy) lives in context.c, next to the headings it uses. */

char *fsc_run_id(const char *path, const char *member, size_t k)
{
    char idbuf[32];
    fsc_buf id = {0};
    fsc_buf_puts(&id, path);
    if (member) {
        fsc_buf_putc(&id, ':');
        fsc_buf_puts(&id, member);
    }
    snprintf(idbuf, sizeof idbuf, "#%zu", k);
    fsc_buf_puts(&id, idbuf);
    if (id.oom) {
        fsc_buf_free(&id);
        return NULL;
    }
    return id.data;
}

/* Pass the held run on. */
static bool flush_held(doc_state *st)
{
    fsc_run *run = st->held;
    st->held = NULL;
    if (run && !st->sink(st->ctx, run)) {
        st->stopped = true;
        return false;
    }
    return true;
}

/* Give a finished run its identity, context and label, and pass it on. */
static bool deliver(doc_state *st, fsc_run *run, size_t first_idx, size_t last_idx, fsc_format fmt)
{
    const fsc_text *t = st->text;
    st->n_runs++;
    run->source.format = run->source.format == FSC_FMT_ENGINE ? FSC_FMT_ENGINE : fmt;
    run->source.path = fsc_strdup(st->doc->path ? st->doc->path : "-");
    run->source.member = fsc_strdup(st->doc->member);
    run->source.first_line = t->lines[first_idx].orig;
    run->source.last_line = t->lines[last_idx].orig;
    run->id = run->source.path ? fsc_run_id(run->source.path, run->source.member, st->doc->first_run + st->n_runs)
                               : NULL;
    if (fsc_context_collect(t, first_idx, run) != FSC_OK || !run->source.path || !run->id) {
        fsc_run_free(run);
        st->stopped = true;
        return false;
    }
    fsc_command_apply_options(run);
    run->label = fsc_job_label(run, run->n_jobs ? &run->jobs[0] : NULL, st->p->opts.label_from);
    if (st->held && !st->p->opts.each_format && fsc_runs_same_invocation(st->held, run)) {
        st->n_runs--; /* one invocation, one run: it keeps the first printout's id */
        st->held = fsc_runs_merge(st->held, run, st->p->opts.label_from);
        st->stopped = !st->held;
        return st->held != NULL;
    }
    if (!flush_held(st))
        return false;
    st->held = run;
    return true;
}

size_t fsc_json_balanced(const char *s, size_t n)
{
    int depth = 0;
    bool in_str = false, esc = false;
    for (const char *p = s, *end = s + n; p < end; p++) {
        char c = *p;
        if (in_str) {
            if (esc)
                esc = false;
            else if (c == '\\')
                esc = true;
            else if (c == '"')
                in_str = false;
            continue;
        }
        if (c == '"')
            in_str = true;
        else if (c == '{' || c == '[')
            depth++;
        else if ((c == '}' || c == ']') && --depth == 0)
            return (size_t)(p + 1 - s);
    }
    return 0;
}

/* A JSON document starting at line i: returns the index of its last line, or i-1
 * if the braces never balance. */
static size_t json_extent(const fsc_text *t, size_t i, size_t *len_out)
{
    const char *start = fsc_text_line(t, i);
    const char *end = t->store.data + t->store.len;
    /* skip to the '{' */
    while (start < end && *start != '{')
        start++;
    size_t len = fsc_json_balanced(start, (size_t)(end - start));
    if (!len)
        return i - 1;
    *len_out = len;
    size_t off = (size_t)(start + len - 1 - t->store.data);
    size_t j = i;
    while (j + 1 < t->n_lines && t->lines[j + 1].off <= off)
        j++;
    return j;
}

static bool line_is_json_start(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    return k < n && s[k] == '{' && (k + 1 == n || s[k + 1] == ' ' || s[k + 1] == '"');
}

/* Structured runs (JSON, terse) found in the first pass; they are delivered in line
 * order among the normal-text runs of the second pass. */
typedef struct pending_run {
    fsc_run *run;
    size_t first, last;
    fsc_format fmt;
} pending_run;

typedef struct pending_list {
    pending_run *items;
    size_t n, cap, next;
} pending_list;

static bool deliver_pending_before(doc_state *ds, pending_list *pl, size_t line_idx)
{
    while (pl->next < pl->n && pl->items[pl->next].first < line_idx) {
        pending_run *pr = &pl->items[pl->next++];
        fsc_run *run = pr->run;
        pr->run = NULL;
        if (!deliver(ds, run, pr->first, pr->last, pr->fmt))
            return false;
    }
    return true;
}

typedef struct normal_ctx {
    doc_state *ds;
    pending_list *pl;
} normal_ctx;

static bool emit_normal_ordered(void *vctx, fsc_run *run, size_t first_idx, size_t last_idx)
{
    normal_ctx *nc = vctx;
    if (!deliver_pending_before(nc->ds, nc->pl, first_idx)) {
        fsc_run_free(run);
        return false;
    }
    return deliver(nc->ds, run, first_idx, last_idx, FSC_FMT_NORMAL);
}

static bool add_pending(pending_list *pl, fsc_run *run, size_t first, size_t last, fsc_format fmt)
{
    pending_run *pr = FSC_PUSH(pl->items, pl->n, pl->cap);
    if (!pr) {
        fsc_run_free(run);
        return false;
    }
    pr->run = run;
    pr->first = first;
    pr->last = last;
    pr->fmt = fmt;
    return true;
}

static void mark_consumed(fsc_text *t, size_t first, size_t last)
{
    for (size_t k = first; k <= last && k < t->n_lines; k++)
        t->lines[k].flags |= FSC_LINE_CONSUMED;
}

/* First pass: fio JSON documents and terse records. Their lines are marked so the
 * normal-text pass skips them while keeping the text around them as one stream (a
 * normal,json run prints its banner before the JSON and its report after it). */
static bool find_structured(fsc_text *text, pending_list *pl, bool fast)
{
    size_t i = 0;
    while (i < text->n_lines) {
        const char *s = fsc_text_line(text, i);
        size_t n = text->lines[i].len;
        if (fast && line_is_json_start(s, n)) {
            /* the fast reader finds the end itself (where json_extent would, for the
             * well-formed JSON it reads) */
            const char *js = memchr(s, '{', n), *end = text->store.data + text->store.len;
            size_t used = 0;
            bool handled = false;
            fsc_run *run = fsc_json_read_fast(js, (size_t)(end - js), &used, &handled);
            if (handled) {
                size_t off = (size_t)(js + used - 1 - text->store.data), last = i;
                while (last + 1 < text->n_lines && text->lines[last + 1].off <= off)
                    last++;
                if (!add_pending(pl, run, i, last, FSC_FMT_JSON))
                    return false;
                mark_consumed(text, i, last);
                i = last + 1;
                continue;
            }
        }
        if (line_is_json_start(s, n)) {
            size_t jlen = 0;
            size_t last = json_extent(text, i, &jlen);
            if (last + 1 > i) {
                const char *js = memchr(s, '{', n);
                fsc_buf err = {0};
                fsc_run *run = fsc_json_read(js, jlen, &err);
                fsc_buf_free(&err);
                if (run) {
                    if (!add_pending(pl, run, i, last, FSC_FMT_JSON))
                        return false;
                    mark_consumed(text, i, last);
                    i = last + 1;
                    continue;
                }
            }
        }
        if (fsc_terse_detect(s, n)) {
            fsc_run *run = fsc_run_new();
            if (!run)
                return false;
            size_t j = i;
            int prev_v = 0;
            while (j < text->n_lines) {
                const char *ls = fsc_text_line(text, j);
                size_t ln = text->lines[j].len;
                int v = fsc_terse_detect(ls, ln);
                /* terse v2 puts the description on the next line, after a ';' */
                if (!v && !(prev_v == 2 && ln && ls[0] == ';'))
                    break;
                prev_v = v;
                if (fsc_terse_read(run, ls, ln, text->lines[j].orig) == FSC_E_NOMEM) {
                    fsc_run_free(run);
                    return false;
                }
                j++;
            }
            if (!add_pending(pl, run, i, j - 1, FSC_FMT_TERSE))
                return false;
            mark_consumed(text, i, j - 1);
            i = j;
            continue;
        }
        i++;
    }
    return true;
}

/* One UTF-16 code unit at s, in the byte order the byte order mark gave. */
static uint32_t utf16_unit(const unsigned char *s, bool big_endian)
{
    return big_endian ? (uint32_t)s[0] << 8 | s[1] : (uint32_t)s[1] << 8 | s[0];
}

/* UTF-16 with a byte order mark (what PowerShell's `>` writes) into UTF-8; unpaired
 * surrogates and an odd last byte become U+FFFD. */
static void utf16_to_utf8(const unsigned char *s, size_t n, bool big_endian, fsc_buf *out)
{
    for (size_t i = 0; i < n; i += 2) {
        uint32_t u = i + 1 < n ? utf16_unit(s + i, big_endian) : 0xFFFD;
        uint32_t lo = i + 3 < n ? utf16_unit(s + i + 2, big_endian) : 0;
        if (u >= 0xD800 && u <= 0xDBFF && lo >= 0xDC00 && lo <= 0xDFFF) {
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            i += 2;
        }
        fsc_buf_put_utf8(out, u >= 0xD800 && u <= 0xDFFF ? 0xFFFD : u);
    }
}

/* The document as UTF-8, in *fixed when it had to be converted (left empty when the
 * data already is UTF-8: nothing is copied). UTF-16 with a byte order mark is
 * transcoded. Bytes that are not UTF-8 (a Latin-1 job name) can match no grammar
 * pattern (PCRE2_MATCH_INVALID_UTF) and would make every output invalid UTF-8: each
 * becomes U+FFFD, as the JSON writer prints it. */
static fsc_status to_utf8(const char *s, size_t n, fsc_buf *fixed)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF))) {
        utf16_to_utf8(u + 2, n - 2, u[0] == 0xFE, fixed);
        return fixed->oom ? FSC_E_NOMEM : FSC_OK;
    }
    size_t i = 0, l;
    while (i < n && (l = u[i] < 0x80 ? 1 : fsc_utf8_len(s + i, n - i)))
        i += l;
    if (i == n)
        return FSC_OK;
    fsc_buf_add(fixed, s, i);
    while (i < n) {
        l = u[i] < 0x80 ? 1 : fsc_utf8_len(s + i, n - i);
        if (l)
            fsc_buf_add(fixed, s + i, l);
        else
            fsc_buf_puts(fixed, "\xEF\xBF\xBD");
        i += l ? l : 1;
    }
    return fixed->oom ? FSC_E_NOMEM : FSC_OK;
}

fsc_status fsc_parse_doc(const fsc_parser *p, const fsc_doc *doc, fsc_run_sink sink, void *ctx,
                         size_t *n_runs)
{
    fsc_text text = {0};
    fsc_buf fixed = {0};
    *n_runs = 0;
    fsc_status st = FSC_OK;
    bool headings = false, json = true;
    /* a log as fio wrote it needs no normalizing: its lines are read in place */
    bool clean = fsc_prescan(p->fast, doc->data, doc->len, doc->first_line, &text, &headings, &json, &st);
    if (clean) {
        st = headings ? fsc_outline_build(&text) : fsc_outline_empty(&text);
    } else if (st == FSC_OK) {
        st = to_utf8(doc->data, doc->len, &fixed);
        if (st == FSC_OK)
            st = fixed.len ? fsc_normalize(fixed.data, fixed.len, &text) : fsc_normalize(doc->data, doc->len, &text);
        fsc_buf_free(&fixed);
        for (size_t i = 0; st == FSC_OK && doc->first_line && i < text.n_lines; i++)
            text.lines[i].orig += doc->first_line; /* a piece of a file: its lines continue */
    }
    if (st != FSC_OK) {
        if (clean)
            fsc_prescan_release(&text);
        fsc_text_free(&text);
        return st;
    }
    doc_state ds = {p, doc, &text, sink, ctx, 0, false, NULL};
    pending_list pl = {0};
    /* the pre-scan lets no terse record through, and says whether JSON may be there */
    bool ok = (clean && !json) || find_structured(&text, &pl, p->fast != NULL);
    if (ok && text.n_lines) {
        normal_ctx nc = {&ds, &pl};
        if (fsc_normal_parse_fast(p->grammars, p->fast, &text, 0, text.n_lines - 1, emit_normal_ordered, &nc) !=
            FSC_OK)
            ok = false;
    }
    if (ok && !ds.stopped)
        ok = deliver_pending_before(&ds, &pl, SIZE_MAX);
    if (ok && !ds.stopped)
        ok = flush_held(&ds);
    fsc_run_free(ds.held);
    for (size_t k = 0; k < pl.n; k++)
        fsc_run_free(pl.items[k].run);
    free(pl.items);
    if (clean)
        fsc_prescan_release(&text);
    fsc_text_free(&text);
    *n_runs = ds.n_runs;
    if (!ok && !ds.stopped)
        return FSC_E_NOMEM;
    return ds.stopped ? FSC_E_INTERRUPTED : FSC_OK;
}
