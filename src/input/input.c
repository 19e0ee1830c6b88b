/* SPDX-License-Identifier: MIT */
/* Manifest helpers of the input module (the reading itself is in walk.c, archive.c
 * and pipe.c). */
#include "fioscope/input.h"

#include <stdlib.h>
#include <string.h>

const char *fsc_input_status_name(fsc_input_status s)
{
    switch (s) {
    case FSC_IN_OK: return "ok";
    case FSC_IN_NO_RUNS: return "no-runs";
    default: return "error";
    }
}

void fsc_manifest_free(fsc_manifest *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->items[i].path);
        free(m->items[i].member);
        free(m->items[i].error);
    }
    free(m->items);
    memset(m, 0, sizeof *m);
}

bool fsc_manifest_add(fsc_manifest *m, const fsc_input_entry *e)
{
    fsc_input_entry c = *e;
    c.path = fsc_strdup(e->path);
    c.member = e->member ? fsc_strdup(e->member) : NULL;
    c.error = e->error ? fsc_strdup(e->error) : NULL;
    fsc_input_entry *d = FSC_PUSH(m->items, m->n, m->cap);
    if (!d || !c.path || (e->member && !c.member) || (e->error && !c.error)) {
        free(c.path);
        free(c.member);
        free(c.error);
        return false;
    }
    *d = c;
    return true;
}

void fsc_manifest_no_runs(const fsc_manifest *m, size_t n_paths, bool *none)
{
    for (size_t i = 0; i < n_paths; i++)
        none[i] = true;
    for (size_t i = 0; i < m->n; i++)
        if (m->items[i].arg < n_paths && m->items[i].runs)
            none[m->items[i].arg] = false;
}
