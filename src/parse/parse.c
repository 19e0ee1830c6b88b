/* SPDX-License-Identifier: MIT */
/* fsc_parse_doc: the pipeline normalize → find JSON / terse / normal runs → label. */
#define _GNU_SOURCE
#include "fioscope/parse.h"

#include "fastline.h"
#include "parse_int.h"

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
    size_t prev_last; /* the last line index of the run delivered before (n_runs > 1) */
    bool stopped;
    fsc_run *held; /* the last run, held back in case the next is its other format */
    fsc_buf notes; /* "line N: ..." sentences about what is no run (see fsc_parse_doc_why) */
    /* notes holds two runs of sentences, each in line order: find_structured's (up to
     * notes_split) and then normal.c's. told: how far each was told (tell_notes) */
    size_t notes_split, told[2];
    /* what every run's id begins with, "path#" or "path:member#", and the path's
     * length + 1, found once for the document (0: not yet, or too long to keep) */
    char id_head[128];
    size_t id_head_len, path_size;
} doc_state;

/* fsc_job_label (the label policy) lives in context.c, next to the headings it uses. */

/* Write an id's head, "path#" or "path:member#" (pn and mn: path's length and
 * member's + 1, 0 without one), at id; returns its length. */
static size_t run_id_head(char *id, const char *path, size_t pn, const char *member, size_t mn)
{
    memcpy(id, path, pn);
    if (member) {
        id[pn] = ':';
        memcpy(id + pn + 1, member, mn - 1);
    }
    id[pn + mn] = '#';
    return pn + mn + 1;
}

/* Write "path#k" or "path:member#k" (len bytes, then a NUL) at id. */
static void run_id_write(char *id, const char *path, size_t pn, const char *member, size_t mn, const char *num,
                         size_t kn, size_t len)
{
    memcpy(id + run_id_head(id, path, pn, member, mn), num, kn);
    id[len] = '\0';
}

/* "path#k", "path:member#k": one allocation at the id's size (not snprintf, ~1000
 * instructions a run; nor an fsc_buf, which took 256 bytes and a call a piece). A
 * short id is made on the stack and copied by fsc_strndup, which takes the block of
 * the id of a run freed before (the same size but for a digit of k, mostly). */
char *fsc_run_id(const char *path, const char *member, size_t k)
{
    char num[24], small[128];
    size_t pn = strlen(path), mn = member ? strlen(member) + 1 : 0, kn = fsc_u64_fmt(num, k);
    size_t len = pn + mn + 1 + kn;
    if (len < sizeof small) {
        run_id_write(small, path, pn, member, mn, num, kn, len);
        return fsc_strndup(small, len);
    }
    char *id = fsc_budget_charge(len + 1) ? malloc(len + 1) : NULL;
    if (id)
        run_id_write(id, path, pn, member, mn, num, kn, len);
    return id;
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

size_t fsc_notes_tell(fsc_run *run, const char *notes, size_t len, uint32_t upto, bool *oom)
{
    size_t at = 0;
    while (at < len) {
        const char *p = notes + at, *nl = memchr(p, '\n', len - at);
        size_t n = nl ? (size_t)(nl - p) : len - at;
        uint32_t line = strncmp(p, "line ", 5) ? 0 : (uint32_t)strtoul(p + 5, NULL, 10);
        if (n && line > upto)
            break;
        const char *msg = memchr(p, ':', n);
        msg = msg && line && msg + 2 <= p + n ? msg + 2 : p;
        if (n && !fsc_run_warn(run, line, "%.*s", (int)(n - (size_t)(msg - p)), msg))
            *oom = true;
        at += n + (nl != NULL);
    }
    return at;
}

void fsc_notes_line(fsc_buf *notes, uint32_t line)
{
    fsc_buf_printf(notes, "%sline %u: ", notes->len ? "\n" : "", line);
}

/* The next note of notes[*at, end) (*at moves past the separators before it): its
 * line number in *line (0: it has none); false when there is none. */
static bool next_note(const char *notes, size_t *at, size_t end, uint32_t *line)
{
    while (*at < end && notes[*at] == '\n')
        ++*at;
    if (*at >= end)
        return false;
    const char *p = notes + *at;
    *line = end - *at > 5 && !strncmp(p, "line ", 5) ? (uint32_t)strtoul(p + 5, NULL, 10) : 0;
    return true;
}

/* The length of the note at notes[at] (up to its '\n' or end). */
static size_t note_len(const char *notes, size_t at, size_t end)
{
    const char *nl = memchr(notes + at, '\n', end - at);
    return nl ? (size_t)(nl - notes) - at : end - at;
}

/* Which pass's note of the two comes first by line (a tie: find_structured's); its
 * line in *line. 0 or 1, -1: neither has one left. */
static int first_note(const doc_state *st, size_t at[2], uint32_t *line)
{
    uint32_t la = 0, lb = 0;
    bool a = next_note(st->notes.data, &at[0], st->notes_split, &la);
    bool b = next_note(st->notes.data, &at[1], st->notes.len, &lb);
    int k = a && (!b || la <= lb) ? 0 : b ? 1 : -1;
    *line = k == 0 ? la : lb;
    return k;
}

/* The notes of both passes not told yet, in line order, one a line, to out: what a
 * document with no run, or a piece below its last run, leaves to the caller. */
static void untold_notes(const doc_state *st, fsc_buf *out)
{
    size_t at[2] = {st->told[0], st->told[1]}, end[2] = {st->notes_split, st->notes.len};
    uint32_t line;
    for (int k; (k = first_note(st, at, &line)) >= 0;) {
        size_t n = note_len(st->notes.data, at[k], end[k]);
        if (out->len)
            fsc_buf_putc(out, '\n');
        fsc_buf_add(out, st->notes.data + at[k], n);
        at[k] += n;
    }
}

/* What was found but cannot be read (a JSON document beyond repair, fio's preamble
 * without results) is told, with its line number, by the run it stands in or above:
 * the notes up to line `upto` become run's warnings, the others wait for a later run
 * (UINT32_MAX: all of them, for the document's last run). A note is placed by its
 * own line, not by the order in which the passes found it, so that it lands next to
 * what it speaks of, and in the same run whether the text is parsed whole or in
 * pieces (find_structured notes every document before any run is delivered). The
 * two passes' notes are told merged by line: a piece holds only some of them, and
 * tells its own before those of the pieces after it (a preamble above a JSON
 * document cut from it came after the document's note read whole, before it in
 * pieces). Each note is looked at once: linear in the notes, however many runs
 * there are. */
static void tell_notes(doc_state *st, fsc_run *run, uint32_t upto)
{
    size_t own = run->n_warnings, end[2] = {st->notes_split, st->notes.len};
    uint32_t line;
    for (int k; (k = first_note(st, st->told, &line)) >= 0 && line <= upto;)
        st->told[k] += fsc_notes_tell(run, st->notes.data + st->told[k], note_len(st->notes.data, st->told[k], end[k]),
                                      upto, &st->notes.oom);
    /* the notes about lines above the run (fio's messages before it started) come
     * before its own warnings, in line order as they were told */
    size_t above = 0;
    while (own + above < run->n_warnings && run->warnings[own + above].line < run->source.first_line)
        above++;
    if (above && own) /* (nearly every run has neither: no call) */
        fsc_run_warnings_to_front(run, own, above); /* (out of memory: they stay after) */
}

/* fsc_run_id(path, member, k) of the document's run k: its head is written once for
 * the document (a run cost two strlen and three copies of the path). */
static char *doc_run_id(doc_state *st, const char *path, size_t k)
{
    const char *member = st->doc->member;
    if (!st->id_head_len) {
        size_t pn = st->path_size - 1, mn = member ? strlen(member) + 1 : 0;
        if (pn + mn + 1 > sizeof st->id_head)
            return fsc_run_id(path, member, k);
        st->id_head_len = run_id_head(st->id_head, path, pn, member, mn);
    }
    char id[sizeof st->id_head + FSC_NUM_MAX];
    memcpy(id, st->id_head, st->id_head_len);
    return fsc_strndup(id, st->id_head_len + fsc_u64_fmt(id + st->id_head_len, k));
}

/* Give a finished run its identity, context and label, and pass it on. */
static bool deliver(doc_state *st, fsc_run *run, size_t first_idx, size_t last_idx, fsc_format fmt)
{
    const fsc_text *t = st->text;
    st->n_runs++;
    fsc_run_finish(run);
    run->source.format = run->source.format == FSC_FMT_ENGINE ? FSC_FMT_ENGINE : fmt;
    const char *path = st->doc->path ? st->doc->path : "-";
    if (!st->path_size)
        st->path_size = strlen(path) + 1;
    run->source.path = fsc_strndup(path, st->path_size - 1);
    run->source.member = fsc_strdup(st->doc->member);
    run->source.first_line = t->lines[first_idx].orig;
    run->source.last_line = t->lines[last_idx].orig;
    run->id = run->source.path ? doc_run_id(st, path, st->doc->first_run + st->n_runs) : NULL;
    tell_notes(st, run, run->source.last_line);
    size_t floor = st->n_runs > 1 && st->prev_last < first_idx ? st->prev_last + 1 : 0;
    st->prev_last = last_idx;
    if (st->notes.oom || fsc_context_collect_below(t, first_idx, floor, run) != FSC_OK || !run->source.path ||
        !run->id) {
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

/* (The parser finds its documents with json_find.c, all in one pass; this is the
 * public test of one value's extent, by the same rules: a string ends at the end of
 * its line, since fio never breaks a line inside one. The walker cuts huge files
 * outside these extents, so they must be the parser's.) */
size_t fsc_json_balanced(const char *s, size_t n)
{
    size_t depth = 0;
    bool in_str = false, esc = false;
    for (const char *p = s, *end = s + n; p < end; p++) {
        char c = *p;
        if (in_str) {
            if (c == '\n')
                in_str = esc = false;
            else if (esc)
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

/* A run read from lines cut short (cutline.c) says so once, at the first of them. */
static bool tell_cut(const fsc_text *t, fsc_run *run, size_t first_idx, size_t last_idx)
{
    for (size_t k = first_idx; k <= last_idx && k < t->n_lines; k++) {
        if (!(t->lines[k].flags & FSC_LINE_CUT))
            continue;
        const char *s = fsc_text_line(t, k);
        size_t n = t->lines[k].len, tail = n > 40 ? 40 : n;
        if (t->open_end_cut && k + 1 == t->n_lines)
            return fsc_run_warn(run, t->lines[k].orig,
                                "the text ends inside this line (no newline after it): read up to its last whole "
                                "value ('%.*s')",
                                (int)tail, s + n - tail);
        return fsc_run_warn(run, t->lines[k].orig,
                            "line cut short: read up to its last whole value ('%.*s'), as the run's other cut lines",
                            (int)tail, s + n - tail);
    }
    return true;
}

static bool emit_normal_ordered(void *vctx, fsc_run *run, size_t first_idx, size_t last_idx)
{
    normal_ctx *nc = vctx;
    if (nc->ds->text->n_cut && !tell_cut(nc->ds->text, run, first_idx, last_idx)) {
        fsc_run_free(run);
        return false;
    }
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
    for (size_t k = first; k <= last && k < t->n_lines; k++) {
        t->n_consumed += !(t->lines[k].flags & FSC_LINE_CONSUMED);
        t->lines[k].flags |= FSC_LINE_CONSUMED;
    }
}

/* First pass: fio JSON documents and terse records. Their lines are marked so the
 * normal-text pass skips them while keeping the text around them as one stream (a
 * normal,json run prints its banner before the JSON and its report after it). */
/* Does the document starting at line i name itself fio's ("fio version", "jobs") in
 * its first lines, up to its last line `last` (SIZE_MAX: one cut off, which runs to
 * the end)? Not past its end: a JSON object on one line (JSON Lines: fioscope's own
 * manifest lines) is not fio's for the run on the next line, which a piece of the
 * text may not have. */
enum { FIO_JSON_NEAR = 12 };

/* The first line at or after the line asked that names fio (hit, SIZE_MAX: none
 * before scan), for starts asked in line order: each line is looked at once. Lines
 * of '{' one after another each asked about the twelve below them (36 searches a
 * line, half the cost of such a text). */
typedef struct fio_named {
    size_t scan, hit, asked;
} fio_named;

static bool names_fio(const fsc_text *t, size_t k)
{
    const char *s = fsc_text_line(t, k);
    size_t n = t->lines[k].len;
    return memmem(s, n, "\"fio version\"", 13) || memmem(s, n, "\"jobs\"", 6) || memmem(s, n, "\"client_stats\"", 14);
}

static bool looks_like_fio_json(const fsc_text *t, size_t i, size_t last, fio_named *c)
{
    if (i < c->asked || (c->hit != SIZE_MAX && c->hit < i)) { /* asked out of order, or a hit above */
        c->scan = i;
        c->hit = SIZE_MAX;
    }
    c->asked = i;
    if (c->scan < i)
        c->scan = i;
    for (; c->hit == SIZE_MAX && c->scan < t->n_lines && c->scan < i + FIO_JSON_NEAR; c->scan++)
        if (names_fio(t, c->scan))
            c->hit = c->scan;
    return c->hit != SIZE_MAX && c->hit < i + FIO_JSON_NEAR && c->hit <= last;
}

/* A fio JSON document at line i that is cut off or elided: *run (NULL when nothing
 * can be read, with a note why) and its last line (width: text_width). false: out of
 * memory. */
static bool repair_json(const fsc_text *t, size_t i, size_t width, fsc_run **run, size_t *last, fsc_buf *notes)
{
    fsc_buf fixed = {0}, gaps = {0}, err = {0};
    *run = NULL;
    fsc_status st = fsc_json_repair(t, i, last, &fixed, &gaps);
    if (st == FSC_E_NOMEM) {
        fsc_buf_free(&fixed);
        fsc_buf_free(&gaps);
        return false;
    }
    if (st == FSC_OK && fixed.len)
        *run = fsc_json_read_in(fixed.data, fixed.len, width, &err);
    bool ok = true;
    for (const char *p = gaps.data; *run && p && *p;) {
        const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
        if (!tab || !nl)
            break;
        ok = ok && fsc_run_warn(*run, (uint32_t)strtoul(p, NULL, 10), "%.*s", (int)(nl - tab - 1), tab + 1);
        p = nl + 1;
    }
    if (!*run && notes) {
        fsc_notes_line(notes, t->lines[i].orig);
        fsc_buf_printf(notes, "a fio JSON document that cannot be read (%s)", err.len ? err.data : "it nests too deep");
    }
    fsc_buf_free(&fixed);
    fsc_buf_free(&gaps);
    fsc_buf_free(&err);
    return ok;
}

/* The terse version of a line (0: none), by the fast detector or its reference. */
static int terse_detect(bool fast, const char *s, size_t n)
{
    return fast ? fsc_terse_detect(s, n) : fsc_terse_detect_ref(s, n);
}

/* The lines of the terse records from line i on (its version tv): the end of the
 * stretch (i when out of memory), each line's version (0: a v2 description line, after
 * a ';') in versions->data[k - i]. Found before the records are read, so that the
 * run's job array is made once at its size, not grown and copied record by record. */
static size_t terse_stretch(const fsc_text *text, size_t i, int tv, bool fast, fsc_buf *versions)
{
    fsc_buf_reset(versions);
    int prev_v = 0;
    size_t j = i;
    for (; j < text->n_lines; j++) {
        const char *ls = fsc_text_line(text, j);
        size_t ln = text->lines[j].len;
        int v = j == i ? tv : terse_detect(fast, ls, ln);
        /* terse v2 puts the description on the next line, after a ';' */
        if (!v && !(prev_v == 2 && ln && ls[0] == ';'))
            break;
        prev_v = v;
        fsc_buf_putc(versions, (char)v);
    }
    return versions->oom ? i : j;
}

/* The terse lines [i, end) into run (their versions from terse_stretch). */
static bool read_terse(fsc_run *run, const fsc_text *text, size_t i, size_t end, const char *versions, bool fast)
{
    size_t records = 0;
    for (size_t j = i; j < end; j++)
        records += versions[j - i] != 0;
    if (!fsc_grow((void **)&run->jobs, &run->cap_jobs, records, sizeof *run->jobs))
        return false;
    for (size_t j = i; j < end; j++) {
        const char *ls = fsc_text_line(text, j);
        size_t ln = text->lines[j].len;
        fsc_status st = fast ? fsc_terse_read_detected(run, ls, ln, text->lines[j].orig, versions[j - i])
                             : fsc_terse_read_ref(run, ls, ln, text->lines[j].orig);
        if (st == FSC_E_NOMEM)
            return false;
    }
    return true;
}

/* fio's job name, field 3 of a v3+ record, is the one field that can hold a space
 * (--name="my job"; fio keeps 127 bytes of it). */
enum { TERSE_NAME_SEMIS = 2, TERSE_NAME_MAX = 128 };

/* Can line ns be a piece of a cut record rather than what follows it? What follows
 * a record that ends at a whole line (fio's JSON, its banner, the next record) is
 * no piece. */
static bool terse_piece(const char *ns, size_t nn)
{
    return nn && !fsc_terse_head(ns, nn) && ns[0] != '{' && ns[0] != '[' && ns[0] != '"' &&
           !(nn >= 4 && memcmp(ns, "fio-", 4) == 0);
}

/* Add piece ns to a record that has *semis ';' so far; false (nothing added) if a
 * space in it lies outside the job name: prose, or a line after a whole record. */
static bool add_terse_piece(fsc_buf *rec, size_t *semis, const char *ns, size_t nn)
{
    size_t c = *semis;
    for (size_t x = 0; x < nn; x++) {
        if (ns[x] == ';')
            c++;
        else if (ns[x] == ' ' && c != TERSE_NAME_SEMIS)
            return false;
    }
    fsc_buf_add(rec, ns, nn);
    *semis = c;
    return true;
}

static size_t count_semis(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t x = 0; x < n; x++)
        c += s[x] == ';';
    return c;
}

/* A hard cut (a terminal, fold, a mail client's line limit): the record from line j
 * in pieces as long as line j, the last one shorter or as long (a console's copy pads
 * it to the width with spaces: they are not the record's). Into rec; the last line
 * taken. */
static size_t join_hard_cut(const fsc_text *text, size_t j, fsc_buf *rec)
{
    size_t w = text->lines[j].len, k = j, semis = count_semis(fsc_text_line(text, j), w);
    fsc_buf_reset(rec);
    fsc_buf_add(rec, fsc_text_line(text, j), w);
    while (text->lines[k].len == w && k + 1 < text->n_lines && !(text->lines[k + 1].flags & FSC_LINE_CONSUMED)) {
        const char *ns = fsc_text_line(text, k + 1);
        size_t nn = text->lines[k + 1].len, tn = nn;
        while (tn && ns[tn - 1] == ' ')
            tn--;
        if (semis + count_semis(ns, tn) == TERSE_NAME_SEMIS)
            tn = nn; /* spaces of the job name, cut after them */
        if (nn > w || !terse_piece(ns, tn) || !add_terse_piece(rec, &semis, ns, tn))
            break;
        k++;
        if (tn < nn) /* padded: the last piece */
            break;
    }
    return k;
}

/* A word wrap (a mail client breaking at spaces, the space lost): a record has
 * spaces only in its job name, so line j ends inside the name (two ';'), the
 * name's other words follow one or more to a line, and the line that closes the
 * name holds the rest of the record, however long. Joined with the spaces back;
 * the last line taken (j: no such record). */
static size_t join_word_wrap(const fsc_text *text, size_t j, fsc_buf *rec)
{
    const char *s = fsc_text_line(text, j);
    size_t w = text->lines[j].len, semis = count_semis(s, w), k = j;
    if (semis != TERSE_NAME_SEMIS)
        return j;
    const char *semi = memchr(s, ';', w);
    semi = memchr(semi + 1, ';', w - (size_t)(semi + 1 - s)); /* two there: counted above */
    size_t name_at = (size_t)(semi + 1 - s);
    fsc_buf_reset(rec);
    fsc_buf_add(rec, s, w);
    while (semis == TERSE_NAME_SEMIS && k + 1 < text->n_lines && !(text->lines[k + 1].flags & FSC_LINE_CONSUMED)) {
        const char *ns = fsc_text_line(text, k + 1);
        size_t nn = text->lines[k + 1].len;
        if (!terse_piece(ns, nn) || ns[0] == ' ')
            return j;
        fsc_buf_putc(rec, ' ');
        if (!add_terse_piece(rec, &semis, ns, nn))
            return j;
        k++;
        if (rec->oom)
            return j;
        const char *name_end = memchr(rec->data + name_at, ';', rec->len - name_at);
        if ((name_end ? (size_t)(name_end - rec->data) : rec->len) - name_at > TERSE_NAME_MAX)
            return j;
    }
    return semis > TERSE_NAME_SEMIS ? k : j;
}

/* Terse records of version 3 to 5 wrapped: hard-cut into pieces as long as their
 * first line (join_hard_cut) or word-wrapped at the spaces of a job name
 * (join_word_wrap), read as the records they were joined back; a joined text that
 * is no record is not taken. The records from line i on into one run; *end: the
 * line after them (i: none there). false: out of memory. */
static bool read_wrapped_terse(fsc_text *text, size_t i, pending_list *pl, bool fast, size_t *end)
{
    enum { MIN_WIDTH = 40 }; /* a record is a thousand bytes or more: a narrower cut is no wrap */
    fsc_run *run = NULL;
    fsc_buf rec = {0};
    size_t j = i;
    bool ok = true;
    *end = i;
    while (j < text->n_lines) {
        const char *s = fsc_text_line(text, j);
        size_t w = text->lines[j].len, k = j;
        if ((text->lines[j].flags & FSC_LINE_CONSUMED) || !fsc_terse_head(s, w))
            break;
        int v = 0;
        if (w >= MIN_WIDTH && (k = join_hard_cut(text, j, &rec)) > j && !rec.oom)
            v = terse_detect(fast, rec.data, rec.len);
        if (!v && !rec.oom && (k = join_word_wrap(text, j, &rec)) > j && !rec.oom)
            v = terse_detect(fast, rec.data, rec.len);
        if (rec.oom) {
            ok = false;
            break;
        }
        if (!v)
            break;
        if (!run && !(run = fsc_run_new())) {
            ok = false;
            break;
        }
        fsc_status st = fast ? fsc_terse_read_detected(run, rec.data, rec.len, text->lines[j].orig, v)
                             : fsc_terse_read_ref(run, rec.data, rec.len, text->lines[j].orig);
        if (st == FSC_E_NOMEM) {
            ok = false;
            break;
        }
        j = k + 1;
    }
    fsc_buf_free(&rec);
    if (ok && run && j > i) {
        ok = add_pending(pl, run, i, j - 1, FSC_FMT_TERSE);
        run = NULL;
        if (ok) {
            mark_consumed(text, i, j - 1);
            *end = j;
        }
    }
    fsc_run_free(run);
    return ok;
}

/* The length of the text's longest line: the width a wrapped paste was cut to. */
static size_t text_width(const fsc_text *t)
{
    size_t w = 0;
    for (size_t k = 0; k < t->n_lines; k++)
        w = t->lines[k].len > w ? t->lines[k].len : w;
    return w;
}

/* Pass on the runs found so far while no line above them but structured ones and
 * blank lines was seen (prefix_clean): no run of the normal-text pass can then come
 * before them, so they go in the order they would go later. A text of JSON Lines or
 * of JSON documents back to back then holds a few dozen runs at a time, not all of
 * them (10 MB of small fio-like JSON objects: 152 MB of runs at -j 1). The notes
 * told with them are find_structured's own so far, all in its section of the notes
 * (see tell_notes). */
static bool deliver_early(doc_state *ds, pending_list *pl, size_t next_line, bool prefix_clean)
{
    enum { EARLY_BATCH = 32 };
    if (!prefix_clean || pl->n - pl->next < EARLY_BATCH)
        return true;
    ds->notes_split = ds->told[1] = ds->notes.len;
    return deliver_pending_before(ds, pl, next_line);
}

/* Its notes go to ds->notes; its runs wait in pl, or go on early (deliver_early). */
static bool find_structured(fsc_text *text, pending_list *pl, doc_state *ds, bool fast)
{
    fsc_buf *notes = &ds->notes;
    bool prefix_clean = true; /* every line before i structured or blank */
    fsc_buf versions = {0}; /* of the lines of a terse stretch */
    /* the extents of the documents the fast reader leaves, each found when asked for */
    fsc_json_finder finder = {0};
    size_t repaired_to = SIZE_MAX;
    fio_named named = {0, SIZE_MAX, 0};
    size_t width = SIZE_MAX; /* text_width, once a document needs it */
    size_t i = 0;
    bool ok = false;
    while (i < text->n_lines) {
        const char *s = fsc_text_line(text, i);
        size_t n = text->lines[i].len;
        bool doc_start = fsc_json_line_start(s, n);
        if (fast && doc_start) {
            /* the fast reader finds the end itself, for the well-formed JSON it reads */
            const char *jstart = memchr(s, '{', n), *end = text->store.data + text->store.len;
            size_t used = 0;
            bool handled = false;
            fsc_run *frun = fsc_json_read_fast(jstart, (size_t)(end - jstart), &used, &handled);
            if (handled) {
                /* its last line, found and marked in one walk (mark_consumed's) */
                size_t off = (size_t)(jstart + used - 1 - text->store.data), flast = i;
                fsc_line *l = text->lines;
                l[i].flags |= FSC_LINE_CONSUMED;
                while (flast + 1 < text->n_lines && l[flast + 1].off <= off)
                    l[++flast].flags |= FSC_LINE_CONSUMED;
                text->n_consumed += flast - i + 1; /* lines after i, none marked before */
                if (!add_pending(pl, frun, i, flast, FSC_FMT_JSON))
                    goto out;
                i = flast + 1;
                if (!deliver_early(ds, pl, i, prefix_clean))
                    goto out;
                continue;
            }
        }
        const fsc_json_span *js = NULL;
        if (doc_start && fsc_json_span_at(text, &finder, i, &js) != FSC_OK)
            goto out;
        fsc_run *run = NULL;
        if (js && width == SIZE_MAX) /* once a text */
            width = text_width(text);
        if (js && js->balanced && js->fio_keys) {
            fsc_buf err = {0};
            run = fsc_json_read_in(text->store.data + js->off, js->len, width, &err);
            fsc_buf_free(&err);
        }
        size_t last = js ? js->last : i;
        /* one repair per stretch of text: the starts inside a document already
         * repaired (or found beyond repair) are not tried again */
        if (js && !run && (repaired_to == SIZE_MAX || i > repaired_to) &&
            looks_like_fio_json(text, i, js->balanced ? js->last : SIZE_MAX, &named)) {
            /* cut off, or with text left out ("..."): read what is whole, say what is not */
            if (!repair_json(text, i, width, &run, &last, notes))
                goto out;
            repaired_to = last;
            if (!run) { /* nothing readable: the lines stay with the normal-text pass */
                prefix_clean = prefix_clean && fsc_skip_spaces(s, s + n) == s + n;
                i++;
                continue;
            }
        }
        if (run) {
            if (!add_pending(pl, run, i, last, FSC_FMT_JSON))
                goto out;
            mark_consumed(text, i, last);
            i = last + 1;
            if (!deliver_early(ds, pl, i, prefix_clean))
                goto out;
            continue;
        }
        int tv = terse_detect(fast, s, n);
        if (tv) {
            size_t end = terse_stretch(text, i, tv, fast, &versions);
            if (end == i || !(run = fsc_run_new()))
                goto out;
            if (!read_terse(run, text, i, end, versions.data, fast)) {
                fsc_run_free(run);
                goto out;
            }
            if (!add_pending(pl, run, i, end - 1, FSC_FMT_TERSE))
                goto out;
            mark_consumed(text, i, end - 1);
            i = end;
            if (!deliver_early(ds, pl, i, prefix_clean))
                goto out;
            continue;
        }
        if (fsc_terse_head(s, n)) {
            size_t end;
            if (!read_wrapped_terse(text, i, pl, fast, &end))
                goto out;
            if (end > i) {
                i = end;
                continue;
            }
        }
        prefix_clean = prefix_clean && fsc_skip_spaces(s, s + n) == s + n;
        i++;
    }
    ok = true;
out:
    fsc_json_finder_free(&finder);
    fsc_buf_free(&versions);
    return ok;
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

/* UTF-32 with a byte order mark into UTF-8; a unit that is no code point (a
 * surrogate, beyond U+10FFFF) and a cut last unit become U+FFFD. */
static void utf32_to_utf8(const unsigned char *s, size_t n, bool big_endian, fsc_buf *out)
{
    for (size_t i = 0; i < n; i += 4) {
        uint32_t u = 0xFFFD;
        if (i + 3 < n)
            u = big_endian ? (uint32_t)s[i] << 24 | (uint32_t)s[i + 1] << 16 | (uint32_t)s[i + 2] << 8 | s[i + 3]
                           : (uint32_t)s[i + 3] << 24 | (uint32_t)s[i + 2] << 16 | (uint32_t)s[i + 1] << 8 | s[i];
        fsc_buf_put_utf8(out, u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF) ? 0xFFFD : u);
    }
}

/* The character of byte c (0x80 or above) in Windows-1252, which is ISO-8859-1 but
 * for 0x80-0x9F; U+FFFD for the five bytes it leaves undefined. */
static uint32_t cp1252_char(unsigned char c)
{
    static const uint16_t c1[32] = {
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD, 0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
        0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178};
    return c >= 0xA0 ? c : c1[c - 0x80];
}

/* The document as UTF-8, in *fixed when it had to be converted (left empty when the
 * data already is UTF-8: nothing is copied). UTF-32 and UTF-16 with a byte order
 * mark are transcoded, and without one when enc says so. Bytes that are not UTF-8 can
 * match no grammar pattern (PCRE2_MATCH_INVALID_UTF) and would make every output
 * invalid UTF-8: each is read as Windows-1252 (ISO-8859-1 but for its printable
 * 0x80-0x9F), the encoding of a text saved by Notepad as "ANSI" or by an old web page
 * or mail: its no-break spaces (0xA0, where a web page indents fio's lines) then read
 * as the spaces they stand for, a Latin-1 job name as its letters. */
static fsc_status to_utf8(const char *s, size_t n, fsc_encoding enc, fsc_buf *fixed)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n >= 4 && ((u[0] == 0xFF && u[1] == 0xFE && !u[2] && !u[3]) ||
                   (!u[0] && !u[1] && u[2] == 0xFE && u[3] == 0xFF))) { /* before UTF-16's FF FE */
        utf32_to_utf8(u + 4, n - 4, u[0] == 0, fixed);
        return fixed->oom ? FSC_E_NOMEM : FSC_OK;
    }
    if (n >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF))) {
        utf16_to_utf8(u + 2, n - 2, u[0] == 0xFE, fixed);
        return fixed->oom ? FSC_E_NOMEM : FSC_OK;
    }
    if (enc == FSC_ENC_UTF16LE || enc == FSC_ENC_UTF16BE) { /* no mark: the input layer's verdict */
        utf16_to_utf8(u, n, enc == FSC_ENC_UTF16BE, fixed);
        return fixed->oom ? FSC_E_NOMEM : FSC_OK;
    }
    if (enc == FSC_ENC_UTF32LE || enc == FSC_ENC_UTF32BE) {
        utf32_to_utf8(u, n, enc == FSC_ENC_UTF32BE, fixed);
        return fixed->oom ? FSC_E_NOMEM : FSC_OK;
    }
    size_t i = 0, l;
    /* ASCII eight bytes at a time (a byte at a time, this was 7 instructions a byte of
     * every text that is normalized) */
    while (i < n) {
        for (uint64_t w; i + 8 <= n && (memcpy(&w, u + i, 8), !(w & 0x8080808080808080ULL));)
            i += 8;
        if (i == n || !(l = u[i] < 0x80 ? 1 : fsc_utf8_len(s + i, n - i)))
            break;
        i += l;
    }
    if (i == n)
        return FSC_OK;
    fsc_buf_add(fixed, s, i);
    while (i < n) {
        l = u[i] < 0x80 ? 1 : fsc_utf8_len(s + i, n - i);
        if (l)
            fsc_buf_add(fixed, s + i, l);
        else
            fsc_buf_put_utf8(fixed, cp1252_char(u[i]));
        i += l ? l : 1;
    }
    return fixed->oom ? FSC_E_NOMEM : FSC_OK;
}

/* Unicode's other line breaks in UTF-8 text: U+2028 LINE SEPARATOR, U+2029
 * PARAGRAPH SEPARATOR (text a web application or a JavaScript string kept, where a
 * newline was not allowed) and U+0085 NEXT LINE (text converted from EBCDIC). With
 * any of them, out gets the text with a carriage return for each, and true: a line
 * break that is no newline, as a lone CR is (its lines keep the number of the line
 * they stand on, as in a file's pieces, whose lines are counted by their newlines). */
static bool unicode_breaks(const char *s, size_t n, fsc_buf *out)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t from = 0;
    bool any = false;
    /* the next lead byte of each kind, looked for again only once passed (a text of
     * CJK has an 0xE2 now and then, and no 0xC2 at all) */
    const unsigned char *e2 = memchr(u, 0xe2, n), *c2 = memchr(u, 0xc2, n);
    while (e2 || c2) {
        const unsigned char *p = e2 && (!c2 || e2 < c2) ? e2 : c2;
        size_t k = (size_t)(p - u), w = 0;
        if (*p == 0xe2 && n - k >= 3 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
            w = 3;
        else if (*p == 0xc2 && n - k >= 2 && p[1] == 0x85)
            w = 2;
        if (w) {
            fsc_buf_add(out, s + from, k - from);
            fsc_buf_putc(out, '\r');
            from = k + w;
            any = true;
        }
        size_t next = k + (w ? w : 1);
        if (e2 && (size_t)(e2 - u) < next)
            e2 = next < n ? memchr(u + next, 0xe2, n - next) : NULL;
        if (c2 && (size_t)(c2 - u) < next)
            c2 = next < n ? memchr(u + next, 0xc2, n - next) : NULL;
    }
    if (any)
        fsc_buf_add(out, s + from, n - from);
    return any;
}

/* The document's lines, normalized from the mail state *start (NULL: none), with the
 * state at its end in *mail_end (NULL: not wanted). */
static fsc_status normalize_doc(const fsc_doc *doc, const fsc_mail_state *start, fsc_text *text,
                                fsc_mail_state *mail_end)
{
    fsc_buf fixed = {0}, unpacked = {0}; /* a recording's or an export's text */
    const char *data = doc->data;
    size_t len = doc->len;
    fsc_status st = FSC_OK;
    if (fsc_cast_doc(data, len)) { /* a terminal recording: what the terminal printed */
        st = fsc_cast_text(data, len, &unpacked);
        data = unpacked.data ? unpacked.data : "";
        len = unpacked.len;
    } else if (fsc_logexport_doc(data, len)) { /* a log service's export: its lines */
        st = fsc_logexport_text(data, len, &unpacked);
        if (st == FSC_OK && unpacked.len) {
            data = unpacked.data;
            len = unpacked.len;
        }
    } else if (doc->encoding == FSC_ENC_UTF8 && len && !data[0]) {
        /* a log that logrotate's copytruncate emptied while fio wrote on at its offset
         * begins with that many NUL bytes, glued to its first line; text after them
         * without another NUL (not UTF-32 or UTF-16, whose NULs go on) */
        size_t z = 0, look;
        while (z < len && !data[z])
            z++;
        look = len - z < 64 ? len - z : 64;
        if (look && !memchr(data + z, 0, look)) {
            data += z;
            len -= z;
        }
    }
    if (st == FSC_OK)
        st = to_utf8(data, len, doc->encoding, &fixed);
    if (st == FSC_OK && fixed.len) {
        data = fixed.data;
        len = fixed.len;
    }
    fsc_buf breaks = {0};
    if (st == FSC_OK && unicode_breaks(data, len, &breaks)) {
        data = breaks.data;
        len = breaks.len;
        st = breaks.oom ? FSC_E_NOMEM : FSC_OK;
    }
    if (st == FSC_OK)
        st = fsc_normalize_lines_from(data, len, start, text, mail_end);
    fsc_buf_free(&breaks);
    fsc_buf_free(&fixed);
    fsc_buf_free(&unpacked);
    for (size_t i = 0; st == FSC_OK && doc->first_line && i < text->n_lines; i++)
        text->lines[i].orig += doc->first_line; /* a piece of a file: its lines continue */
    return st;
}

/* Is s[0, n) "and K more note(s)"? *k: K. */
static bool more_notes(const char *s, size_t n, size_t *k)
{
    size_t i = 4;
    if (n < 4 || memcmp(s, "and ", 4))
        return false;
    for (*k = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        *k = *k * 10 + (size_t)(s[i] - '0');
    return i > 4 && ((n - i == 10 && !memcmp(s + i, " more note", 10)) ||
                     (n - i == 11 && !memcmp(s + i, " more notes", 11)));
}

/* The notes of why (lines; a last "and K more notes" counts K) to out, up to
 * FSC_WHY_NOTES shown in all (*shown); the others counted in *more. */
static void why_notes(const char *why, fsc_buf *out, size_t *shown, size_t *more)
{
    for (const char *p = why; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p), k = 0;
        if (!nl && more_notes(p, n, &k)) /* a note is "line N: ...", never this */
            *more += k;
        else if (*shown < FSC_WHY_NOTES) {
            fsc_buf_printf(out, "%s%.*s", out->len ? "\n" : "", (int)n, p);
            ++*shown;
        } else
            ++*more;
        p = nl ? nl + 1 : p + n;
    }
}

char *fsc_why_join(char *a, char *b)
{
    if (!a && !b)
        return NULL;
    fsc_buf out = {0};
    size_t shown = 0, more = 0;
    why_notes(a, &out, &shown, &more);
    why_notes(b, &out, &shown, &more);
    if (more)
        fsc_buf_printf(&out, "\nand %zu more note%s", more, more == 1 ? "" : "s");
    free(a);
    free(b);
    if (out.oom) {
        fsc_buf_free(&out);
        return NULL;
    }
    return out.data;
}

/* A whole document read last line first (fsc_text_reversed): its runs as read from
 * the turned text, their line numbers those of the document as it is (line k of n
 * turned is line n + 1 - k), and a warning that says so. */
typedef struct turned_sink {
    fsc_run_sink sink;
    void *ctx;
    uint32_t lines; /* the document's lines + 1 */
} turned_sink;

static uint32_t turned_line(const turned_sink *ts, uint32_t k)
{
    return k && k < ts->lines ? ts->lines - k : k;
}

static bool turned_run(void *ctx, fsc_run *run)
{
    const turned_sink *ts = ctx;
    uint32_t first = run->source.first_line, last = run->source.last_line;
    run->source.first_line = turned_line(ts, last);
    run->source.last_line = turned_line(ts, first);
    for (size_t i = 0; i < run->n_jobs; i++) {
        fsc_job *j = &run->jobs[i];
        uint32_t a = j->first_line;
        j->first_line = turned_line(ts, j->last_line);
        j->last_line = turned_line(ts, a);
    }
    for (size_t i = 0; i < run->n_warnings; i++)
        run->warnings[i].line = turned_line(ts, run->warnings[i].line);
    for (size_t i = 0, n = run->n_unknown_lines; i < n; i++) /* ascending, as they were */
        run->unknown_lines[i] = turned_line(ts, run->unknown_lines[i]);
    for (size_t i = 0, n = run->n_unknown_lines; i < n / 2; i++) {
        uint32_t t = run->unknown_lines[i];
        run->unknown_lines[i] = run->unknown_lines[n - 1 - i];
        run->unknown_lines[n - 1 - i] = t;
    }
    if (!fsc_run_warn(run, run->source.last_line,
                      "the text's lines come last first (a log export sorted newest first, tac): read in the "
                      "other order") ||
        !fsc_run_warnings_to_front(run, run->n_warnings - 1, 1)) {
        fsc_run_free(run);
        return false;
    }
    return ts->sink(ts->ctx, run);
}

static fsc_status parse_doc(const fsc_parser *p, const fsc_doc *doc, fsc_run_sink sink, void *ctx, size_t *n_runs,
                            char **why);

fsc_status fsc_parse_doc_why(const fsc_parser *p, const fsc_doc *doc, fsc_run_sink sink, void *ctx,
                             size_t *n_runs, char **why)
{
    bool whole = !doc->first_line && !doc->first_run && !doc->more && !doc->carry;
    if (!whole || doc->encoding != FSC_ENC_UTF8 || !fsc_text_reversed(doc->data, doc->len))
        return parse_doc(p, doc, sink, ctx, n_runs, why);
    fsc_buf flipped = {0};
    fsc_status st = fsc_reverse_lines(doc->data, doc->len, &flipped);
    if (st != FSC_OK) {
        fsc_buf_free(&flipped);
        return st;
    }
    fsc_doc turned = *doc;
    turned.data = flipped.data;
    turned.len = flipped.len;
    turned_sink ts = {sink, ctx, 1};
    for (const char *q = flipped.data; (q = memchr(q, '\n', (size_t)(flipped.data + flipped.len - q))); q++)
        ts.lines++;
    st = parse_doc(p, &turned, turned_run, &ts, n_runs, why);
    fsc_buf_free(&flipped);
    return st;
}

static fsc_status parse_doc(const fsc_parser *p, const fsc_doc *doc, fsc_run_sink sink, void *ctx, size_t *n_runs,
                            char **why)
{
    fsc_text text = {0};
    *n_runs = 0;
    if (why)
        *why = NULL;
    fsc_status st = FSC_OK;
    bool headings = false, json = true;
    /* a piece of a file: the mail its text ends in, as far as the piece tells (a
     * clean piece holds no mail header: all zero) */
    fsc_mail_state mail_end = {0};
    /* a log as fio wrote it needs no normalizing: its lines are read in place */
    bool clean = doc->encoding == FSC_ENC_UTF8 && !fsc_logexport_doc(doc->data, doc->len) &&
                 fsc_prescan(p->fast, doc->data, doc->len, doc->first_line, doc->checked, &text, &headings, &json,
                             &st);
    if (!clean && st == FSC_OK)
        st = normalize_doc(doc, NULL, &text, doc->carry ? &mail_end : NULL);
    if (st == FSC_OK) {
        /* a piece of a file: its runs' headings and command may lie in the pieces
         * before it, whose carry comes in file order (it may wait for that); its own
         * goes on to the next piece as soon as its outline is known, before its runs
         * are read */
        const fsc_carry *above = doc->carry ? doc->carry->take(doc->carry->ctx) : NULL;
        const fsc_mail_state *mail = above ? fsc_carry_mail(above) : NULL;
        if (mail && fsc_mail_state_matters(mail, doc->data, doc->len)) {
            /* the piece begins inside a quoted-printable or flowed mail of the pieces
             * above: its text is normalized again, as the whole file's would be (seldom:
             * only pieces of mails with such headers) */
            if (clean)
                fsc_prescan_release(&text);
            fsc_text_free(&text);
            clean = false;
            json = true;
            st = normalize_doc(doc, mail, &text, &mail_end);
        } else if (mail) {
            fsc_mail_state_follow(&mail_end, mail);
        }
        if (st == FSC_OK)
            st = clean && !headings ? fsc_outline_empty(&text, above) : fsc_outline_build(&text, above);
        if (st == FSC_OK && doc->carry) {
            fsc_carry *end = fsc_context_carry(&text);
            st = end ? FSC_OK : FSC_E_NOMEM;
            if (end)
                fsc_carry_set_mail(end, &mail_end);
            doc->carry->give(doc->carry->ctx, end);
        }
    }
    if (st != FSC_OK) {
        if (clean)
            fsc_prescan_release(&text);
        fsc_text_free(&text);
        return st;
    }
    text.open_end = doc->len && doc->data[doc->len - 1] != '\n';
    doc_state ds = {.p = p, .doc = doc, .text = &text, .sink = sink, .ctx = ctx};
    pending_list pl = {0};
    /* the pre-scan lets no terse record through, and says whether JSON may be there */
    bool ok = (clean && !json) || find_structured(&text, &pl, &ds, p->fast != NULL);
    ds.notes_split = ds.told[1] = ds.notes.len;
    if (ok && text.n_consumed < text.n_lines) /* the text left to the normal parser */
        fsc_text_cut_lines(&text, p->grammars, clean && !json);
    if (ok && text.n_lines) {
        normal_ctx nc = {&ds, &pl};
        if (fsc_normal_parse_fast(p->grammars, p->fast, &text, 0, text.n_lines - 1, doc->more, emit_normal_ordered,
                                  &nc, &ds.notes) != FSC_OK)
            ok = false;
    }
    if (ok && !ds.stopped)
        ok = deliver_pending_before(&ds, &pl, SIZE_MAX);
    /* what follows the last run: its own, unless more of the file follows (a piece
     * but the last): then the run below it, in a later piece, tells it (pipe.c) */
    bool below_later = doc->more && why;
    if (ok && !ds.stopped && ds.held && !below_later) {
        tell_notes(&ds, ds.held, UINT32_MAX);
        ok = !ds.notes.oom;
    }
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
    if (why && !ds.n_runs && ds.notes.len && !ds.notes.oom) {
        /* the caller's now, in line order: a piece's whole (a later piece's run tells
         * them), else capped */
        fsc_buf all = {0};
        untold_notes(&ds, &all);
        if (all.oom) {
            fsc_buf_free(&all);
            ok = false;
        } else if (all.len) {
            *why = doc->more || doc->first_line ? all.data : fsc_why_join(all.data, NULL);
        }
    } else if (below_later && ok && !ds.stopped && ds.notes.len && !ds.notes.oom) {
        /* the notes below the piece's last run, both passes' (see tell_notes) */
        fsc_buf rest = {0};
        untold_notes(&ds, &rest);
        if (rest.len && !rest.oom)
            *why = rest.data;
        else
            fsc_buf_free(&rest);
        ok = !rest.oom;
    }
    fsc_buf_free(&ds.notes);
    if (!ok && !ds.stopped)
        return FSC_E_NOMEM;
    return ds.stopped ? FSC_E_INTERRUPTED : FSC_OK;
}

fsc_status fsc_parse_doc(const fsc_parser *p, const fsc_doc *doc, fsc_run_sink sink, void *ctx,
                         size_t *n_runs)
{
    return fsc_parse_doc_why(p, doc, sink, ctx, n_runs, NULL);
}

bool fsc_text_is_plain_fio(const char *text, size_t len)
{
    return fsc_prescan_plain_fio(text, len);
}

fsc_text_kind fsc_text_kind_of(const char *text, size_t len)
{
    fsc_plain_check *c = fsc_plain_check_new(true);
    return c ? fsc_plain_check_end(c, text, len) : FSC_TEXT_MIXED;
}
