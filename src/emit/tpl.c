/* SPDX-License-Identifier: MIT */
/*
 * Template filling for the HTML and Markdown reports. Values from input are always
 * escaped; only values marked trusted go in raw through {{{name}}}.
 */
#include "tpl.h"

#include "fioscope/embedded.h"
#include "fioscope/escape.h"

#include <stdlib.h>
#include <string.h>

typedef struct tpl_entry {
    char *name;
    char *value; /* NULL for a list */
    bool trusted;
    fsc_tpl_vars **items;
    size_t n_items, cap_items;
} tpl_entry;

struct fsc_tpl_vars {
    tpl_entry *e;
    size_t n, cap;
    const fsc_tpl_vars *parent;
};

/* Render state: one template, one output, the first error wins. */
typedef struct tpl_run {
    const char *name, *start;
    fsc_tpl_escape esc;
    fsc_buf *out, *err;
    fsc_status st;
} tpl_run;

fsc_tpl_vars *fsc_tpl_vars_new(void)
{
    return calloc(1, sizeof(fsc_tpl_vars));
}

void fsc_tpl_vars_free(fsc_tpl_vars *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        free(v->e[i].name);
        free(v->e[i].value);
        for (size_t k = 0; k < v->e[i].n_items; k++)
            fsc_tpl_vars_free(v->e[i].items[k]);
        free(v->e[i].items);
    }
    free(v->e);
    free(v);
}

static tpl_entry *entry_get(fsc_tpl_vars *v, const char *name)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->e[i].name, name))
            return &v->e[i];
    char *copy = fsc_strdup(name);
    tpl_entry *e = copy ? FSC_PUSH(v->e, v->n, v->cap) : NULL;
    if (!e) {
        free(copy);
        return NULL;
    }
    memset(e, 0, sizeof *e);
    e->name = copy;
    return e;
}

static bool set_value(fsc_tpl_vars *v, const char *name, const char *text, bool trusted)
{
    tpl_entry *e = entry_get(v, name);
    char *copy = fsc_strdup(text ? text : "");
    if (!e || !copy) {
        free(copy);
        return false;
    }
    free(e->value);
    e->value = copy;
    e->trusted = trusted;
    return true;
}

bool fsc_tpl_set(fsc_tpl_vars *v, const char *name, const char *text)
{
    return set_value(v, name, text, false);
}

bool fsc_tpl_set_trusted(fsc_tpl_vars *v, const char *name, const char *markup)
{
    return set_value(v, name, markup, true);
}

fsc_tpl_vars *fsc_tpl_add_item(fsc_tpl_vars *v, const char *name)
{
    tpl_entry *e = entry_get(v, name);
    fsc_tpl_vars *item = e ? fsc_tpl_vars_new() : NULL;
    fsc_tpl_vars **slot = item ? FSC_PUSH(e->items, e->n_items, e->cap_items) : NULL;
    if (!slot) {
        free(item);
        return NULL;
    }
    item->parent = v;
    *slot = item;
    return item;
}

static const tpl_entry *lookup(const fsc_tpl_vars *v, const char *name, size_t n)
{
    for (; v; v = v->parent)
        for (size_t i = 0; i < v->n; i++)
            if (strlen(v->e[i].name) == n && !memcmp(v->e[i].name, name, n))
                return &v->e[i];
    return NULL;
}

void fsc_html_escape(fsc_buf *out, const char *s)
{
    fsc_esc_html(out, s);
}

static void md_escape(fsc_buf *out, const char *s)
{
    fsc_esc_md(out, s);
}

static unsigned line_of(const tpl_run *r, const char *at)
{
    unsigned line = 1;
    for (const char *p = r->start; p < at; p++)
        line += *p == '\n';
    return line;
}

static void fail(tpl_run *r, const char *at, const char *what, const char *name, size_t n)
{
    if (r->st == FSC_OK)
        fsc_buf_printf(r->err, "%s:%u: %s '%.*s'", r->name, line_of(r, at), what, (int)n, name);
    r->st = FSC_E_SYNTAX;
}

/* Find the {{/name}} closing a section opened just before body; NULL if none. */
static const char *section_end(const char *body, const char *end, const char *name, size_t n)
{
    int depth = 0;
    for (const char *p = body; p + 4 + n <= end; p++) {
        if (p[0] != '{' || p[1] != '{' || (p[2] != '#' && p[2] != '^' && p[2] != '/'))
            continue;
        if (memcmp(p + 3, name, n) || p[3 + n] != '}')
            continue;
        if (p[2] != '/')
            depth++;
        else if (depth-- == 0)
            return p;
    }
    return NULL;
}

static void render_range(tpl_run *r, const char *p, const char *end, const fsc_tpl_vars *v);

static bool entry_empty(const tpl_entry *e)
{
    return !e || (e->value ? !e->value[0] : e->n_items == 0);
}

/* {{#name}} / {{^name}}: p points at the tag, tag_end after it. Returns where to go on. */
static const char *render_section(tpl_run *r, const char *p, const char *tag_end, const char *end,
                                  const char *name, size_t n, const fsc_tpl_vars *v)
{
    const char *close = section_end(tag_end, end, name, n);
    if (!close) {
        fail(r, p, "unclosed section", name, n);
        return end;
    }
    const tpl_entry *e = lookup(v, name, n);
    if (p[2] == '^') {
        if (entry_empty(e))
            render_range(r, tag_end, close, v);
    } else if (e && !e->value) {
        for (size_t i = 0; i < e->n_items; i++)
            render_range(r, tag_end, close, e->items[i]);
    } else if (!entry_empty(e))
        render_range(r, tag_end, close, v);
    return close + n + 5;
}

static void put_value(tpl_run *r, const tpl_entry *e, bool raw)
{
    if (raw && e->trusted)
        fsc_buf_puts(r->out, e->value);
    else if (r->esc == FSC_TPL_HTML)
        fsc_html_escape(r->out, e->value);
    else
        md_escape(r->out, e->value);
}

static void render_range(tpl_run *r, const char *p, const char *end, const fsc_tpl_vars *v)
{
    while (p < end && r->st == FSC_OK) {
        const char *tag = p;
        while (tag + 1 < end && !(tag[0] == '{' && tag[1] == '{'))
            tag++;
        if (tag + 1 >= end) {
            fsc_buf_add(r->out, p, (size_t)(end - p));
            return;
        }
        fsc_buf_add(r->out, p, (size_t)(tag - p));
        bool raw = tag + 2 < end && tag[2] == '{';
        bool section = !raw && tag + 2 < end && (tag[2] == '#' || tag[2] == '^');
        const char *name = tag + 2 + (raw || section);
        const char *close = name;
        while (close < end && *close != '}')
            close++;
        size_t n = (size_t)(close - name);
        const char *after = close + (raw ? 3 : 2);
        if (after > end || memcmp(close, "}}}", raw ? 3 : 2) || n == 0) {
            fail(r, tag, "malformed tag", name, n);
            return;
        }
        if (section) {
            p = render_section(r, tag, after, end, name, n, v);
            continue;
        }
        const tpl_entry *e = lookup(v, name, n);
        if (!e || !e->value) {
            fail(r, tag, e ? "list used as a value" : "no value for", name, n);
            return;
        }
        put_value(r, e, raw);
        p = after;
    }
}

fsc_status fsc_tpl_render(const char *tpl_name, const char *tpl, size_t len, const fsc_tpl_vars *v,
                          fsc_tpl_escape esc, fsc_buf *out, fsc_buf *err)
{
    tpl_run r = {tpl_name, tpl, esc, out, err, FSC_OK};
    render_range(&r, tpl, tpl + len, v);
    if (r.st == FSC_OK && out->oom)
        r.st = FSC_E_NOMEM;
    return r.st;
}

const char *fsc_template_get(const char *name, size_t *len)
{
    for (const struct fsc_embedded *t = fsc_template_files; t->name; t++)
        if (!strcmp(t->name, name)) {
            *len = t->size;
            return t->data;
        }
    return NULL;
}
