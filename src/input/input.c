/* SPDX-License-Identifier: MIT */
/* Manifest helpers of the input module (the reading itself is in walk.c, pieces.c,
 * archive.c and pipe.c). */
#include "fioscope/input.h"
#include "fioscope/model_json.h"

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
        /* ok without runs: a fio log file, whose series went to a run (logjoin.c) */
        if (m->items[i].arg < n_paths && (m->items[i].runs || m->items[i].status == FSC_IN_OK))
            none[m->items[i].arg] = false;
}

void fsc_input_entry_write(fsc_jw *w, const fsc_input_entry *e)
{
    fsc_jw_obj(w);
    fsc_jw_key(w, "path");
    fsc_jw_str(w, e->path);
    fsc_jw_key(w, "member");
    fsc_jw_str(w, e->member);
    fsc_jw_key(w, "status");
    fsc_jw_str(w, fsc_input_status_name(e->status));
    fsc_jw_key(w, "runs");
    fsc_jw_num(w, (double)e->runs);
    fsc_jw_key(w, "warnings");
    fsc_jw_num(w, (double)e->warnings);
    fsc_jw_key(w, "error");
    fsc_jw_str(w, e->error);
    fsc_jw_obj_end(w);
}

void fsc_document_head(fsc_jw *w, const fsc_manifest *m)
{
    fsc_model_write_doc_start(w);
    fsc_jw_key(w, "inputs");
    fsc_jw_arr(w);
    for (size_t i = 0; i < m->n; i++)
        fsc_input_entry_write(w, &m->items[i]);
    fsc_jw_arr_end(w);
    fsc_jw_key(w, "runs");
    fsc_jw_arr(w);
}

void fsc_document_tail(fsc_jw *w, size_t n_runs)
{
    w->first[w->depth] = n_runs == 0; /* "[]" for none */
    fsc_jw_arr_end(w);
    fsc_jw_obj_end(w);
    fsc_buf_putc(w->out, '\n');
}

bool fsc_document_write(fsc_jw *w, const fsc_manifest *m, const fsc_runset *set,
                        const fsc_json_opts *o, bool (*flush)(void *ctx, fsc_buf *b), void *ctx)
{
    fsc_document_head(w, m);
    /* run by run, so that the buffer never holds everything twice */
    for (size_t i = 0; i < set->n_runs; i++) {
        fsc_model_write_run(w, set->runs[i], o);
        if (flush && w->out->len > ((size_t)1 << 20) && !flush(ctx, w->out))
            return false;
    }
    fsc_document_tail(w, set->n_runs);
    return !w->out->oom;
}
