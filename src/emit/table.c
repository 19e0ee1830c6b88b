/* SPDX-License-Identifier: MIT */
/*
 * Building a table: group the jobs of a runset into rows (per job, group, label or
 * run), split mixed read/write rows per direction, and evaluate every metric.
 * Numbers of several jobs of one run are combined (summed, or I/O-weighted for
 * latencies); numbers of several runs (repeats) are averaged.
 */
#include "emit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fsc_default_metrics = "label,dir,rw,bs,iodepth,jobs,iops,bw,lat,clat.p99,cpu";

typedef struct member {
    size_t run;
    const fsc_job *job;
} member;

/* Jobs that end up in one row (or one set of per-direction rows). */
typedef struct group {
    char *key, *label;
    size_t run_index, job_index;
    member *m;
    size_t n, cap;
} group;

typedef struct builder {
    const fsc_runset *set;
    fsc_table_opts opts;
    fsc_mspec *specs;
    size_t n_specs, cap_specs;
    group *groups;
    size_t n_groups, cap_groups;
    fsc_table *t;
    bool oom;
} builder;

/* ---- metrics list ---- */

static bool parse_metric_list(builder *b, const char *list, fsc_buf *err)
{
    const char *p = list, *s;
    size_t len;
    while (fsc_list_next(&p, &s, &len)) {
        if (len) {
            fsc_mspec *spec = FSC_PUSH(b->specs, b->n_specs, b->cap_specs);
            if (!spec) {
                b->oom = true;
                return false;
            }
            if (!fsc_mspec_parse(s, len, spec)) {
                fsc_buf_puts(err, "unknown metric '");
                fsc_buf_add(err, s, len);
                fsc_buf_puts(err, "'");
                return false;
            }
        }
    }
    if (!b->n_specs) {
        fsc_buf_puts(err, "no metric given");
        return false;
    }
    return true;
}

/* ---- grouping ---- */

/* Headings of a run (no job name), else its id without the directories
 * ("g_json.json#1"). Caller frees. */
static char *run_base_label(const fsc_run *run, fsc_label_from lf)
{
    char *l = fsc_job_label(run, NULL, lf);
    if (l && !*l) {
        const char *id = run->id ? run->id : "run";
        const char *slash = strrchr(id, '/');
        free(l);
        l = fsc_strdup(slash ? slash + 1 : id);
    }
    return l;
}

static void group_key(builder *b, size_t ri, const fsc_job *job, const char *label, fsc_buf *key,
                      fsc_buf *lab)
{
    const fsc_run *run = b->set->runs[ri];
    char *base;
    switch ((int)b->opts.by) {
    case FSC_BY_GROUP:
        base = run_base_label(run, b->opts.label_from);
        fsc_buf_printf(key, "%zu\x1f%.0f", ri, job->groupid.set ? job->groupid.v : 0);
        fsc_buf_printf(lab, "%s \xe2\x80\xba group %.0f", base ? base : "",
                       job->groupid.set ? job->groupid.v : 0);
        free(base);
        break;
    case FSC_BY_RUN:
        base = run_base_label(run, b->opts.label_from);
        fsc_buf_printf(key, "%zu", ri);
        fsc_buf_puts(lab, base ? base : "");
        free(base);
        break;
    case FSC_BY_LABEL:
        fsc_buf_puts(key, label);
        fsc_buf_puts(lab, label);
        break;
    case FSC_BY_RUN_LABEL:
        fsc_buf_printf(key, "%zu\x1f%s", ri, label);
        fsc_buf_puts(lab, label);
        break;
    case FSC_BY_JOB:
    default:
        fsc_buf_printf(key, "%zu\x1f%zu", ri, (size_t)(job - run->jobs)); /* own row */
        fsc_buf_puts(lab, label);
        break;
    }
}

static group *find_or_add_group(builder *b, const char *key, const char *label, size_t ri,
                                size_t ji)
{
    /* newest first: jobs of one key usually come together */
    for (size_t i = b->n_groups; b->opts.by != FSC_BY_JOB && i-- > 0;)
        if (!strcmp(b->groups[i].key, key))
            return &b->groups[i];
    group *g = FSC_PUSH(b->groups, b->n_groups, b->cap_groups);
    if (!g)
        return NULL;
    memset(g, 0, sizeof *g);
    g->key = fsc_strdup(key);
    g->label = fsc_strdup(label);
    g->run_index = ri;
    g->job_index = b->opts.by == FSC_BY_JOB ? ji : SIZE_MAX;
    if (!g->key || !g->label)
        return NULL;
    return g;
}

static bool add_job(builder *b, size_t ri, size_t ji)
{
    const fsc_run *run = b->set->runs[ri];
    const fsc_job *job = &run->jobs[ji];
    fsc_buf key = {0}, lab = {0};
    char *label = fsc_job_label(run, job, b->opts.label_from);
    bool ok = false;
    if (label) {
        group_key(b, ri, job, label, &key, &lab);
        if (!key.oom && !lab.oom) {
            group *g = find_or_add_group(b, key.data ? key.data : "",
                                         lab.data ? lab.data : "", ri, ji);
            member *m = g ? FSC_PUSH(g->m, g->n, g->cap) : NULL;
            if (m) {
                m->run = ri;
                m->job = job;
                ok = true;
            }
        }
    }
    free(label);
    fsc_buf_free(&key);
    fsc_buf_free(&lab);
    return ok;
}

/* ---- evaluation ---- */

typedef struct acc {
    fsc_magg agg;
    bool set;
    double v, wsum, wv, plain;
    size_t n;
} acc;

static void acc_add(acc *a, fsc_mval x)
{
    if (!x.set)
        return;
    switch (a->agg) {
    case FSC_AGG_SUM:
        a->v += x.v;
        break;
    case FSC_AGG_MIN:
        if (!a->set || x.v < a->v)
            a->v = x.v;
        break;
    case FSC_AGG_MAX:
        if (!a->set || x.v > a->v)
            a->v = x.v;
        break;
    case FSC_AGG_MEAN:
    case FSC_AGG_WMEAN:
        a->wv += x.v * x.w;
        a->plain += x.v;
        break;
    }
    a->wsum += x.w;
    a->n++;
    a->set = true;
}

static fsc_mval acc_result(const acc *a)
{
    fsc_mval r = {a->set, a->v, a->wsum};
    if (a->set && a->agg == FSC_AGG_MEAN)
        r.v = a->plain / (double)a->n;
    else if (a->set && a->agg == FSC_AGG_WMEAN)
        r.v = a->wsum > 0 ? a->wv / a->wsum : a->plain / (double)a->n;
    return r;
}

/* Combine within each run with the metric's rule, then average across runs. */
static fsc_mval eval_group(const fsc_mspec *s, const group *g, int only)
{
    acc outer = {.agg = s->agg == FSC_AGG_MIN || s->agg == FSC_AGG_MAX ? s->agg : FSC_AGG_MEAN};
    for (size_t i = 0; i < g->n;) {
        acc inner = {.agg = s->agg};
        size_t run = g->m[i].run;
        for (; i < g->n && g->m[i].run == run; i++)
            acc_add(&inner, fsc_mspec_eval(s, g->m[i].job, only));
        acc_add(&outer, acc_result(&inner));
    }
    return acc_result(&outer);
}

/* Text of a text metric for a row: the common value of its jobs, or "mixed". */
static const char *group_text(const fsc_mspec *s, const fsc_runset *set, const group *g,
                              char *tmp, size_t tmp_len)
{
    char first[1024] = "";
    const char *common = NULL;
    for (size_t i = 0; i < g->n; i++) {
        const char *v = fsc_job_text(s, set->runs[g->m[i].run], g->m[i].job, tmp, tmp_len);
        if (!v)
            continue;
        if (!common) {
            snprintf(first, sizeof first, "%s", v);
            common = first;
        } else if (strcmp(common, v)) {
            return "mixed";
        }
    }
    if (!common)
        return NULL;
    snprintf(tmp, tmp_len, "%s", first);
    return tmp;
}

static unsigned group_dirs(const group *g)
{
    unsigned mask = 0;
    for (size_t i = 0; i < g->n; i++)
        mask |= fsc_job_dirs(g->m[i].job);
    return mask;
}

static void dir_text(unsigned mask, int dir, bool total, char *tmp, size_t tmp_len)
{
    size_t used = 0;
    tmp[0] = '\0';
    if (dir >= 0 || total) {
        snprintf(tmp, tmp_len, "%s", total ? "total" : fsc_ddir_name((fsc_ddir)dir));
        return;
    }
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if (mask & (1u << d)) {
            int n = snprintf(tmp + used, tmp_len - used, "%s%s", used ? "+" : "",
                             fsc_ddir_name((fsc_ddir)d));
            if (n < 0 || (size_t)n >= tmp_len - used)
                return;
            used += (size_t)n;
        }
}

static bool set_text_cell(fsc_cell *c, const char *text)
{
    if (!text || !*text)
        return true;
    c->kind = FSC_CELL_TEXT;
    c->text = fsc_strdup(text);
    return c->text != NULL;
}

static bool fill_row(builder *b, fsc_row *row, const group *g, unsigned mask)
{
    char tmp[1024];
    for (size_t c = 0; c < b->n_specs; c++) {
        const fsc_mspec *s = &b->specs[c];
        fsc_cell *cell = &row->cells[c];
        const char *text = NULL;
        if (s->kind != FSC_MK_TEXT) {
            if (s->dir >= 0 && row->dir >= 0 && s->dir != row->dir)
                continue; /* read.iops says nothing in the write row of a mixed job */
            fsc_mval v = eval_group(s, g, row->dir);
            if (v.set) {
                cell->kind = FSC_CELL_NUM;
                cell->num = v.v;
            }
            continue;
        }
        if (s->text == FSC_MT_LABEL) {
            text = g->label;
        } else if (s->text == FSC_MT_DIR) {
            dir_text(mask, row->dir, row->total, tmp, sizeof tmp);
            text = tmp;
        } else {
            text = group_text(s, b->set, g, tmp, sizeof tmp);
        }
        if (!set_text_cell(cell, text))
            return false;
    }
    return true;
}

static bool add_row(builder *b, const group *g, int dir, bool total, unsigned mask)
{
    fsc_table *t = b->t;
    fsc_row *row = FSC_PUSH(t->rows, t->n_rows, t->cap_rows);
    if (!row)
        return false;
    memset(row, 0, sizeof *row);
    row->dir = dir;
    row->total = total;
    row->run_index = g->run_index;
    row->job_index = g->job_index;
    row->label = fsc_strdup(g->label);
    row->cells = calloc(t->n_cols ? t->n_cols : 1, sizeof *row->cells);
    if (!row->label || !row->cells)
        return false;
    return fill_row(b, row, g, mask);
}

static bool has_direction_agnostic(const builder *b)
{
    for (size_t c = 0; c < b->n_specs; c++)
        if (b->specs[c].kind == FSC_MK_ALL_FIELD || b->specs[c].kind == FSC_MK_ALL_LAT)
            return true;
    return false;
}

static bool add_group_rows(builder *b, const group *g)
{
    unsigned mask = group_dirs(g);
    bool split = !b->opts.no_split && has_direction_agnostic(b) && (mask & (mask - 1)) != 0;
    if (!split)
        return add_row(b, g, -1, false, mask);
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if ((mask & (1u << d)) && !add_row(b, g, d, false, mask))
            return false;
    return add_row(b, g, -1, true, mask);
}

static bool make_columns(builder *b)
{
    fsc_table *t = b->t;
    t->cols = calloc(b->n_specs, sizeof *t->cols);
    if (!t->cols)
        return false;
    t->n_cols = b->n_specs;
    for (size_t c = 0; c < b->n_specs; c++) {
        t->cols[c] = b->specs[c].m;
        t->cols[c].name = fsc_strdup(b->specs[c].name);
        t->cols[c].title = fsc_strdup(b->specs[c].title);
        if (!t->cols[c].name || !t->cols[c].title)
            return false;
    }
    return true;
}

static void builder_free(builder *b)
{
    for (size_t i = 0; i < b->n_groups; i++) {
        free(b->groups[i].key);
        free(b->groups[i].label);
        free(b->groups[i].m);
    }
    free(b->groups);
    free(b->specs);
}

fsc_table *fsc_table_build_opts(const fsc_runset *set, const char *metrics,
                                const fsc_table_opts *opts, fsc_buf *err)
{
    builder b = {.set = set};
    if (opts)
        b.opts = *opts;
    bool ok = parse_metric_list(&b, metrics ? metrics : fsc_default_metrics, err);
    if (ok) {
        b.t = calloc(1, sizeof *b.t);
        ok = b.t && make_columns(&b);
    }
    for (size_t ri = 0; ok && ri < set->n_runs; ri++)
        for (size_t ji = 0; ok && ji < set->runs[ri]->n_jobs; ji++)
            ok = add_job(&b, ri, ji);
    for (size_t gi = 0; ok && gi < b.n_groups; gi++)
        ok = add_group_rows(&b, &b.groups[gi]);
    if (!ok && b.t && !err->len)
        fsc_buf_puts(err, fsc_strerror(FSC_E_NOMEM));
    builder_free(&b);
    if (!ok) {
        fsc_table_free(b.t);
        return NULL;
    }
    return b.t;
}

fsc_table *fsc_table_build(const fsc_runset *set, const char *metrics, fsc_by by,
                           fsc_label_from label_from, fsc_buf *err)
{
    fsc_table_opts o = {.by = by, .label_from = label_from};
    return fsc_table_build_opts(set, metrics, &o, err);
}

void fsc_table_free(fsc_table *t)
{
    if (!t)
        return;
    for (size_t r = 0; r < t->n_rows; r++) {
        if (t->rows[r].cells)
            for (size_t c = 0; c < t->n_cols; c++)
                free(t->rows[r].cells[c].text);
        free(t->rows[r].cells);
        free(t->rows[r].label);
    }
    free(t->rows);
    for (size_t c = 0; c < t->n_cols; c++) {
        free((char *)t->cols[c].name);
        free((char *)t->cols[c].title);
    }
    free(t->cols);
    free(t);
}
