/* SPDX-License-Identifier: MIT */
/* Normalize raw bytes into lines with a map back to original line numbers. */
#include "parse_int.h"

#include <stdlib.h>
#include <string.h>

void fsc_text_free(fsc_text *t)
{
    fsc_buf_free(&t->store);
    free(t->lines);
    memset(t, 0, sizeof *t);
}

static bool add_line(fsc_text *t, const char *s, size_t n, uint32_t orig, uint16_t flags)
{
    fsc_line *l = FSC_PUSH(t->lines, t->n_lines, t->cap_lines);
    if (!l)
        return false;
    l->off = t->store.len;
    l->len = (uint32_t)n;
    l->orig = orig;
    l->flags = flags;
    fsc_buf_add(&t->store, s, n);
    fsc_buf_putc(&t->store, '\n');
    return !t->store.oom;
}

fsc_status fsc_normalize(const char *data, size_t len, fsc_text *out)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    uint32_t lineno = 0;
    while (i < len) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - data) : len;
        size_t n = end - i;
        uint16_t flags = 0;
        if (n && data[i + n - 1] == '\r') {
            n--;
            flags |= FSC_LINE_CR;
        }
        lineno++;
        if (!add_line(out, data + i, n, lineno, flags))
            return FSC_E_NOMEM;
        i = end + 1;
    }
    return FSC_OK;
}
