/* SPDX-License-Identifier: MIT */
/*
 * Logic-less templates (templates/NAME.tpl, compiled into the binary): `{{name}}` is
 * replaced by escaped text, `{{{name}}}` by trusted markup, `{{#list}}…{{/list}}`
 * repeats for each item of a list (or shows once when a value is non-empty) and
 * `{{^name}}…{{/name}}` shows when it is empty.
 */
#ifndef FIOSCOPE_TPL_H
#define FIOSCOPE_TPL_H

#include "fioscope/buf.h"

/* How `{{name}}` escapes: HTML entities, or Markdown backslashes (plus HTML entities
 * for < > &, which Markdown renderers pass through as raw HTML otherwise). */
typedef enum fsc_tpl_escape { FSC_TPL_HTML, FSC_TPL_MD } fsc_tpl_escape;

typedef struct fsc_tpl_vars fsc_tpl_vars;

/* A new empty set of values; NULL on allocation failure. Free with fsc_tpl_vars_free. */
fsc_tpl_vars *fsc_tpl_vars_new(void);
void fsc_tpl_vars_free(fsc_tpl_vars *v); /* NULL is fine; frees list items too */

/* Set name to a copy of text (from input: always escaped, also in {{{name}}}). */
bool fsc_tpl_set(fsc_tpl_vars *v, const char *name, const char *text);
/* Set name to trusted markup that {{{name}}} inserts as is: only HTML built by
 * fsc_table_render("html") or JSON written by fsc_jw with html_safe=true. */
bool fsc_tpl_set_trusted(fsc_tpl_vars *v, const char *name, const char *markup);
/* Append an item to list `name`; returns the item's values (owned by v; lookups in it
 * fall back to v), or NULL on allocation failure. */
fsc_tpl_vars *fsc_tpl_add_item(fsc_tpl_vars *v, const char *name);

/* Fill template tpl[0..len) (named tpl_name in messages) into out. A name without a
 * value or an unclosed section is FSC_E_SYNTAX with "NAME:LINE: ..." in err. */
fsc_status fsc_tpl_render(const char *tpl_name, const char *tpl, size_t len, const fsc_tpl_vars *v,
                          fsc_tpl_escape esc, fsc_buf *out, fsc_buf *err);

/* The embedded template called name (e.g. "report.html.tpl"), or NULL. */
const char *fsc_template_get(const char *name, size_t *len);

/* Append s HTML-escaped (& < > " ') to out. */
void fsc_html_escape(fsc_buf *out, const char *s);

#endif
