/* SPDX-License-Identifier: MIT */
/*
 * Where the JSON documents of a text are: every line that starts with '{' may begin
 * one. All of them are matched in one pass over the text with a stack of open
 * brackets, so a text of a million "{" lines costs one walk, not one walk per line.
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

typedef struct open_bracket {
    size_t off;       /* in t->store */
    size_t line;      /* the line it begins, when it is a document start; else SIZE_MAX */
    bool fio_key;     /* a "jobs" or "client_stats" string seen right inside it */
} open_bracket;

static bool is_fio_key(const char *s, size_t n)
{
    return (n == 4 && !memcmp(s, "jobs", 4)) || (n == 12 && !memcmp(s, "client_stats", 12));
}

static bool add_span(fsc_json_span **spans, size_t *n, size_t *cap, const open_bracket *o, size_t last,
                     size_t end_off, bool balanced)
{
    fsc_json_span *sp = FSC_PUSH(*spans, *n, *cap);
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
 * at every line start is "outside a string", whichever line a scan began at, and one
 * scan serves all starts. Brackets after a document closed on its line, and lines
 * outside every open document, are not looked at.
 */
fsc_status fsc_json_spans_find(const fsc_text *t, fsc_json_span **out, size_t *n_out)
{
    open_bracket *stack = NULL;
    size_t depth = 0, cap = 0;
    fsc_json_span *spans = NULL;
    size_t n = 0, scap = 0;
    bool ok = true;
    *out = NULL;
    *n_out = 0;
    for (size_t i = 0; i < t->n_lines && ok; i++) {
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
                        stack[depth - 1].fio_key = true;
                }
                continue;
            }
            if (c == '"') {
                in_str = true;
                str_start = k + 1;
            } else if (c == '{' || c == '[') {
                open_bracket *o = FSC_PUSH(stack, depth, cap);
                if (!o) {
                    ok = false;
                    break;
                }
                o->off = (size_t)(s + k - t->store.data);
                o->line = k == first_brace ? i : SIZE_MAX;
                o->fio_key = false;
            } else if ((c == '}' || c == ']') && depth) {
                open_bracket *o = &stack[--depth];
                if (o->line != SIZE_MAX)
                    ok = add_span(&spans, &n, &scap, o, i, (size_t)(s + k + 1 - t->store.data), true);
                if (!depth)
                    break; /* the rest of the line is outside every document */
            }
        }
    }
    /* what is still open never closes: its document runs to the end of the text */
    for (size_t k = 0; ok && k < depth; k++)
        if (stack[k].line != SIZE_MAX)
            ok = add_span(&spans, &n, &scap, &stack[k], t->n_lines - 1, t->store.len, false);
    free(stack);
    if (!ok) {
        free(spans);
        return FSC_E_NOMEM;
    }
    qsort(spans, n, sizeof *spans, cmp_span);
    *out = spans;
    *n_out = n;
    return FSC_OK;
}
