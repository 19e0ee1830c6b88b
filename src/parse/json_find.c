/* SPDX-License-Identifier: MIT */
/*
 * Where the JSON documents of a text are: every line that starts with '{' may begin
 * one. They are matched with a stack of open brackets, each stretch of the text
 * walked once at most, so a text of a million "{" lines costs one walk, not one
 * walk per line.
 */
#include "parse_int.h"

#include <stdlib.h>
#include <string.h>

bool fsc_json_line_start(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    return k < n && s[k] == '{' && (k + 1 == n || s[k + 1] == ' ' || s[k + 1] == '"');
}

struct fsc_json_open {
    size_t off;       /* in t->store */
    size_t line;      /* the line it begins, when it is a document start; else SIZE_MAX */
    bool fio_key;     /* a "jobs" or "client_stats" string seen right inside it */
};
typedef struct fsc_json_open open_bracket;

static bool is_fio_key(const char *s, size_t n)
{
    return (n == 4 && !memcmp(s, "jobs", 4)) || (n == 12 && !memcmp(s, "client_stats", 12));
}

static bool add_span(fsc_json_finder *f, const open_bracket *o, size_t last, size_t end_off, bool balanced)
{
    fsc_json_span *sp = FSC_PUSH(f->spans, f->n, f->cap);
    if (!sp)
        return false;
    sp->first = o->line;
    sp->last = last;
    sp->off = o->off;
    sp->len = end_off - o->off;
    sp->balanced = balanced;
    sp->fio_keys = o->fio_key;
    return true;
}

static int cmp_span(const void *a, const void *b)
{
    const fsc_json_span *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * A string ends at the end of its line: fio never writes a line break inside a JSON
 * string, and a stray quote in prose must not hide the rest of the text. So the state
 * at every line start is "outside a string", whichever line a scan began at.
 *
 * One walk from the start at line `from` until its bracket closes (or the text
 * ends) finds its extent and those of all the starts inside it: a document's extent
 * depends only on the text from its '{' on, so walking a stretch when it is first
 * asked for gives what one walk over the whole text would. The stretches never
 * overlap, so a text of a million "{" lines still costs one walk, and a text of
 * documents that the fast reader takes costs none.
 */
static fsc_status walk_from(const fsc_text *t, fsc_json_finder *f, size_t from)
{
    size_t depth = 0, first_new = f->n, i = from;
    bool ok = true;
    for (; i < t->n_lines && ok; i++) {
        const char *s = fsc_text_line(t, i);
        size_t len = t->lines[i].len;
        bool start = !(t->lines[i].flags & FSC_LINE_CONSUMED) && fsc_json_line_start(s, len);
        if (!depth && !start)
            continue;
        size_t first_brace = start ? (size_t)((const char *)memchr(s, '{', len) - s) : SIZE_MAX;
        bool in_str = false, esc = false;
        size_t str_start = 0;
        for (size_t k = depth ? 0 : first_brace; k < len && ok; k++) {
            char c = s[k];
            if (in_str) {
                if (esc)
                    esc = false;
                else if (c == '\\')
                    esc = true;
                else if (c == '"') {
                    in_str = false;
                    if (depth && is_fio_key(s + str_start, k - str_start))
                        f->stack[depth - 1].fio_key = true;
                }
                continue;
            }
            if (c == '"') {
                in_str = true;
                str_start = k + 1;
            } else if (c == '{' || c == '[') {
                open_bracket *o = FSC_PUSH(f->stack, depth, f->stack_cap);
                if (!o) {
                    ok = false;
                    break;
                }
                o->off = (size_t)(s + k - t->store.data);
                o->line = k == first_brace ? i : SIZE_MAX;
                o->fio_key = false;
            } else if ((c == '}' || c == ']') && depth) {
                open_bracket *o = &f->stack[--depth];
                if (o->line != SIZE_MAX)
                    ok = add_span(f, o, i, (size_t)(s + k + 1 - t->store.data), true);
                if (!depth)
                    break; /* the rest of the line is outside every document */
            }
        }
        if (!depth) { /* the stretch's first document has closed */
            i++;
            break;
        }
    }
    /* what is still open never closes: its document runs to the end of the text */
    for (size_t k = 0; ok && k < depth; k++)
        if (f->stack[k].line != SIZE_MAX)
            ok = add_span(f, &f->stack[k], t->n_lines - 1, t->store.len, false);
    if (!ok)
        return FSC_E_NOMEM;
    f->walked = depth ? t->n_lines : i;
    /* every earlier stretch ends before this one begins: the list stays in line order */
    qsort(f->spans + first_new, f->n - first_new, sizeof *f->spans, cmp_span);
    return FSC_OK;
}

fsc_status fsc_json_span_at(const fsc_text *t, fsc_json_finder *f, size_t i, const fsc_json_span **out)
{
    *out = NULL;
    if (i >= f->walked) {
        fsc_status st = walk_from(t, f, i);
        if (st != FSC_OK)
            return st;
    }
    while (f->next < f->n && f->spans[f->next].first < i)
        f->next++;
    if (f->next < f->n && f->spans[f->next].first == i)
        *out = &f->spans[f->next];
    return FSC_OK;
}

void fsc_json_finder_free(fsc_json_finder *f)
{
    free(f->spans);
    free(f->stack);
    memset(f, 0, sizeof *f);
}

fsc_status fsc_json_spans_find(const fsc_text *t, fsc_json_span **out, size_t *n_out)
{
    fsc_json_finder f = {0};
    *out = NULL;
    *n_out = 0;
    for (size_t i = 0; i < t->n_lines; i++) {
        const fsc_json_span *sp;
        if (i >= f.walked && !(t->lines[i].flags & FSC_LINE_CONSUMED) &&
            fsc_json_line_start(fsc_text_line(t, i), t->lines[i].len) && fsc_json_span_at(t, &f, i, &sp) != FSC_OK) {
            fsc_json_finder_free(&f);
            return FSC_E_NOMEM;
        }
    }
    free(f.stack);
    *out = f.spans;
    *n_out = f.n;
    return FSC_OK;
}

/* ---- cut-off and elided documents ---- */

enum { MAX_DEPTH = 64, PATH_MAX_LEN = 160 };

typedef struct frame {
    bool object;
    bool need_comma; /* a complete member/element was written: the next needs a ',' */
    bool after_key;  /* a key and ':' were written, its value is awaited */
    size_t safe;     /* output length after the last complete member (or the opener) */
    size_t index;    /* of the element being written (arrays) */
    char key[48];    /* of the member being written (objects) */
} frame;

typedef struct repair {
    fsc_buf *out;
    fsc_buf *notes;
    frame st[MAX_DEPTH];
    size_t depth;
    bool overflow;
    bool pending; /* a number or word ended its line: whole unless the document ends */
} repair;

/* "jobs[1].read.clat_ns": where the repair is, for the notes. */
static void path_of(const repair *r, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (size_t d = 1; d < r->depth && n + 1 < cap; d++) {
        const frame *f = &r->st[d - 1];
        int k = f->object ? snprintf(buf + n, cap - n, "%s%s", n ? "." : "", f->key)
                          : snprintf(buf + n, cap - n, "[%zu]", f->index);
        if (k < 0)
            break;
        n += (size_t)k < cap - n ? (size_t)k : cap - n - 1;
    }
    if (r->depth && r->st[r->depth - 1].object && r->st[r->depth - 1].after_key && n + 1 < cap)
        snprintf(buf + n, cap - n, "%s%s", n ? "." : "", r->st[r->depth - 1].key);
    if (!buf[0])
        snprintf(buf, cap, "the top level");
}

/* A note on what is missing; "%s" in what is replaced by the path. */
static void note(repair *r, uint32_t line, const char *what)
{
    char path[PATH_MAX_LEN];
    path_of(r, path, sizeof path);
    const char *p = strstr(what, "%s");
    fsc_buf_printf(r->notes, "%u\tJSON document: %.*s%s%s\n", line, (int)(p ? p - what : (long)strlen(what)), what,
                   p ? path : "", p ? p + 2 : "");
}

/* A value (or a key's string) begins: put the ',' a gap may have eaten. */
static void value_starts(repair *r)
{
    if (!r->depth)
        return;
    frame *f = &r->st[r->depth - 1];
    if (f->need_comma && !f->after_key) {
        fsc_buf_putc(r->out, ',');
        f->need_comma = false;
    }
}

/* A value is complete: the member or element it belongs to is. */
static void value_done(repair *r)
{
    if (!r->depth)
        return;
    frame *f = &r->st[r->depth - 1];
    if (f->object && !f->after_key)
        return; /* that was a key */
    f->after_key = false;
    f->need_comma = true;
    f->safe = r->out->len;
    if (!f->object)
        f->index++;
}

static void open_frame(repair *r, bool object)
{
    value_starts(r);
    fsc_buf_putc(r->out, object ? '{' : '[');
    if (r->depth == MAX_DEPTH) {
        r->overflow = true;
        return;
    }
    frame *f = &r->st[r->depth++];
    memset(f, 0, sizeof *f);
    f->object = object;
    f->safe = r->out->len;
}

/* Close the innermost container: a member left without its value is dropped (cut
 * back to the last complete one); a trailing ',' never gets written. */
static void close_frame(repair *r)
{
    frame *f = &r->st[r->depth - 1];
    if (f->after_key || r->pending)
        r->out->len = f->safe;
    r->pending = false;
    while (r->out->len && (r->out->data[r->out->len - 1] == ',' || r->out->data[r->out->len - 1] == ' '))
        r->out->len--;
    fsc_buf_putc(r->out, f->object ? '}' : ']');
    r->depth--;
    value_done(r);
}

/* A line that stands for text left out: "...", "…", "[...]", "<snip>", "// ...". */
static bool elision_line(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == ','))
        n--;
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    s += i;
    n -= i;
    if (!n)
        return false;
    if (n >= 2 && s[0] == '/' && s[1] == '/')
        return true;
    static const char *const marks[] = {"...", "\xe2\x80\xa6", "[...]", "(...)", "{...}", "<snip>", "[snip]",
                                        "<...>", "[\xe2\x80\xa6]", "\"...\""};
    for (size_t k = 0; k < sizeof marks / sizeof *marks; k++)
        if (strlen(marks[k]) == n && !memcmp(s, marks[k], n))
            return true;
    for (size_t k = 0; k < n; k++)
        if (s[k] != '.')
            return false;
    return n >= 3;
}

/* Could this line belong to a pretty-printed JSON document? */
static bool json_ish(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (i == n)
        return false;
    char c = s[i];
    return c == '"' || c == '{' || c == '}' || c == '[' || c == ']' || c == '-' || (c >= '0' && c <= '9') ||
           elision_line(s, n);
}

/* Scan one line of the document into r->out. */
static void repair_line(repair *r, const char *s, size_t n, uint32_t line, bool *ended)
{
    for (size_t i = 0; i < n && !*ended && !r->overflow; i++) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\r')
            continue;
        if (r->pending) { /* more text came: the value before was whole */
            r->pending = false;
            value_done(r);
        }
        if (c == '{' || c == '[') {
            open_frame(r, c == '{');
        } else if (c == '}' || c == ']') {
            if (!r->depth)
                continue;
            close_frame(r);
            if (!r->depth)
                *ended = true;
        } else if (c == ',') {
            /* written by value_starts when the next value comes */
        } else if (c == ':') {
            if (r->depth && r->st[r->depth - 1].object) {
                fsc_buf_putc(r->out, ':');
                r->st[r->depth - 1].after_key = true;
            }
        } else if (c == '"') {
            size_t e = i + 1;
            bool esc = false;
            for (; e < n; e++) {
                if (esc)
                    esc = false;
                else if (s[e] == '\\')
                    esc = true;
                else if (s[e] == '"')
                    break;
            }
            if (e >= n) { /* a string cut off by the end of its line: the rest is lost */
                note(r, line, "a string cut off in %s, left out");
                i = n;
                continue;
            }
            frame *f = r->depth ? &r->st[r->depth - 1] : NULL;
            bool key = f && f->object && !f->after_key;
            value_starts(r);
            if (key) {
                size_t kl = e - i - 1 < sizeof f->key - 1 ? e - i - 1 : sizeof f->key - 1;
                memcpy(f->key, s + i + 1, kl);
                f->key[kl] = 0;
            }
            fsc_buf_add(r->out, s + i, e - i + 1);
            value_done(r);
            i = e;
        } else if (c == '.' && i + 2 < n && s[i + 1] == '.' && s[i + 2] == '.') {
            note(r, line, "text left out ('...') in %s: those fields are missing");
            while (i + 1 < n && s[i + 1] == '.')
                i++;
        } else {
            size_t e = i;
            while (e < n && !strchr(" \t,:{}[]\"", s[e]))
                e++;
            if (e == i) /* a NUL byte (strchr finds the terminator): no word, skip it */
                continue;
            if (!r->depth || (r->st[r->depth - 1].object && !r->st[r->depth - 1].after_key)) {
                i = e - 1; /* a bare word where a key belongs: not JSON, left out */
                continue;
            }
            value_starts(r);
            fsc_buf_add(r->out, s + i, e - i);
            /* the last token of a cut-off document may itself be cut: only a value with
             * something after it on its line is sure to be whole */
            if (e < n)
                value_done(r);
            else
                r->pending = true;
            i = e - 1;
        }
    }
}

fsc_status fsc_json_repair(const fsc_text *t, size_t first, size_t *last_out, fsc_buf *out, fsc_buf *notes)
{
    repair r;
    memset(&r, 0, sizeof r);
    r.out = out;
    r.notes = notes;
    bool ended = false;
    size_t i = first, last = first;
    for (; i < t->n_lines && !ended && !r.overflow; i++) {
        const char *s = fsc_text_line(t, i);
        size_t n = t->lines[i].len;
        if (i > first && !json_ish(s, n)) {
            /* blank lines inside are tolerated while JSON follows them */
            size_t j = i;
            while (j < t->n_lines && t->lines[j].len == 0)
                j++;
            if (j == i || j >= t->n_lines || !json_ish(fsc_text_line(t, j), t->lines[j].len))
                break;
            i = j - 1;
            continue;
        }
        if (i > first && elision_line(s, n)) {
            note(&r, t->lines[i].orig, "lines left out ('...') in %s: those fields are missing");
            last = i;
            continue;
        }
        repair_line(&r, i == first ? memchr(s, '{', n) : s, i == first ? n - (size_t)((const char *)memchr(s, '{', n) - s) : n,
                     t->lines[i].orig, &ended);
        last = i;
    }
    if (r.depth && !r.overflow) {
        note(&r, t->lines[last].orig, "cut off in %s: the rest of the document is missing");
        while (r.depth)
            close_frame(&r);
    }
    *last_out = last;
    if (out->oom || notes->oom)
        return FSC_E_NOMEM;
    return r.overflow ? FSC_E_SYNTAX : FSC_OK;
}
