/* SPDX-License-Identifier: MIT */
/*
 * Building a table: group the jobs of a runset into rows (per job, group, label or
 * run), split mixed read/write rows per direction, and evaluate every metric.
 * Numbers of several jobs of one run are combined (summed, or I/O-weighted for
 * latencies); numbers of several runs (repeats) are averaged. Jobs, their
 * directions, labels and dimensions come from the analysis (fioscope/analyze.h), so
 * --where selects table rows and the system names reach the labels.
 */
#include "emit_int.h"
#include "fioscope/keyindex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fsc_default_metrics = "label,dir,rw,bs,iodepth,jobs,iops,bw,lat,clat.p99,cpu";

typedef struct member {
    size_t run;
    const fsc_job *job;
    const fsc_job *total; /* the job as its total row reads it (a repaired "mixed" line) */
    const fsc_arow *row;  /* its first selected analysis row */
    unsigned dirs;        /* selected directions: 1u << FSC_DIR_*; MIXED = the total row */
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
    const fsc_analysis *an;
    fsc_analysis *own_an; /* built here when the caller gave none */
    fsc_table_opts opts;
    fsc_mspec *specs;
    size_t n_specs, cap_specs;
    group *groups;
    size_t n_groups, cap_groups;
    fsc_keyindex group_index; /* by key: many distinct labels stay linear */
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

static const char *group_key_at(const void *items, size_t i)
{
    return ((const group *)items)[i].key;
}

static group *find_or_add_group(builder *b, const char *key, const char *label, size_t ri,
                                size_t ji)
{
    if (b->opts.by != FSC_BY_JOB) {
        size_t i = fsc_keyindex_find(&b->group_index, b->groups, b->n_groups, group_key_at, key);
        if (i < b->n_groups)
            return &b->groups[i];
    }
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
    if (b->opts.by != FSC_BY_JOB && !fsc_keyindex_added(&b->group_index, b->groups, b->n_groups, group_key_at))
        return NULL;
    return g;
}

static bool add_job(builder *b, size_t ri, size_t ji)
{
    const fsc_run *run = b->set->runs[ri];
    const fsc_job *job = &run->jobs[ji];
    size_t first, n;
    if (!fsc_analysis_job_rows(b->an, 0, ri, ji, &first, &n))
        return true; /* --where left nothing of this job */
    member mem = {.run = ri, .job = job, .total = job, .row = fsc_analysis_row(b->an, first)};
    for (size_t k = 0; k < n; k++) {
        const fsc_arow *r = fsc_analysis_row(b->an, first + k);
        mem.dirs |= 1u << r->dir;
        if (r->dir == FSC_DIR_MIXED)
            mem.total = r->j;
    }
    fsc_buf key = {0}, lab = {0};
    const char *label = mem.row->dim[FSC_DIM_LABEL];
    bool ok = false;
    group_key(b, ri, job, label, &key, &lab);
    if (!key.oom && !lab.oom) {
        group *g = find_or_add_group(b, key.data ? key.data : "", lab.data ? lab.data : "", ri, ji);
        member *m = g ? FSC_PUSH(g->m, g->n, g->cap) : NULL;
        if (m) {
            *m = mem;
            ok = true;
        }
    }
    fsc_buf_free(&key);
    fsc_buf_free(&lab);
    return ok;
}

/* ---- evaluation ---- */

/* Combine within each run with the metric's rule, then average across runs. */
static fsc_mval eval_group(const fsc_mspec *s, const group *g, int only)
{
    fsc_macc outer = fsc_macc_of(s->agg == FSC_AGG_MIN || s->agg == FSC_AGG_MAX ? s->agg : FSC_AGG_MEAN);
    for (size_t i = 0; i < g->n;) {
        fsc_macc inner = fsc_macc_of(s->agg);
        size_t run = g->m[i].run;
        for (; i < g->n && g->m[i].run == run; i++) {
            const member *m = &g->m[i];
            if (only >= 0 && (m->dirs & (1u << only)))
                fsc_macc_add(&inner, fsc_mspec_eval(s, m->job, only));
            else if (only < 0)
                fsc_macc_add(&inner, fsc_mspec_eval(s, m->total, -1));
        }
        fsc_macc_add(&outer, fsc_macc_result(&inner));
    }
    return fsc_macc_result(&outer);
}

/* Text of a text metric for a row: the common value of its jobs, or "mixed". The
 * value is kept whole (a job name of a megabyte stays one in CSV and JSON): *owned
 * receives the copy to free. */
static const char *group_text(const fsc_mspec *s, const fsc_runset *set, const group *g,
                              char *tmp, size_t tmp_len, char **owned)
{
    char *first = NULL;
    for (size_t i = 0; i < g->n; i++) {
        const char *v = s->dim >= 0 ? fsc_analysis_text(NULL, g->m[i].row, s, tmp, tmp_len)
                                    : fsc_job_text(s, set->runs[g->m[i].run], g->m[i].job, tmp, tmp_len);
        if (!v)
            continue;
        if (!first) {
            if (!(first = fsc_strdup(v)))
                return NULL;
        } else if (strcmp(first, v)) {
            free(first);
            return "mixed";
        }
    }
    *owned = first;
    return first;
}

/* The directions the members did: read/write/trim bits, and MIXED for a job that only
 * printed unified_rw_reporting's "mixed" line. */
static unsigned group_dirs(const group *g)
{
    unsigned mask = 0;
    for (size_t i = 0; i < g->n; i++) {
        unsigned d = g->m[i].dirs & ~(1u << FSC_DIR_MIXED);
        mask |= d ? d : fsc_job_dirs(g->m[i].total) ? g->m[i].dirs : 0; /* 0: a job without I/O */
    }
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
                             fsc_rowdir_name(d)); /* unified_rw_reporting's mixed: "total" */
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
        char *owned = NULL;
        if (s->text == FSC_MT_LABEL) {
            text = g->label;
        } else if (s->text == FSC_MT_DIR) {
            dir_text(mask, row->dir, row->total, tmp, sizeof tmp);
            text = tmp;
        } else {
            text = group_text(s, b->set, g, tmp, sizeof tmp, &owned);
        }
        bool ok = set_text_cell(cell, text);
        free(owned);
        if (!ok)
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
    fsc_analysis_free(b->own_an);
    for (size_t i = 0; i < b->n_groups; i++) {
        free(b->groups[i].key);
        free(b->groups[i].label);
        free(b->groups[i].m);
    }
    free(b->groups);
    fsc_keyindex_free(&b->group_index);
    free(b->specs);
}

fsc_table *fsc_table_build_opts(const fsc_runset *set, const char *metrics,
                                const fsc_table_opts *opts, fsc_buf *err)
{
    builder b = {.set = set};
    if (opts)
        b.opts = *opts;
    bool ok = parse_metric_list(&b, metrics ? metrics : fsc_default_metrics, err);
    b.an = b.opts.analysis;
    if (ok && !b.an) {
        fsc_analysis_opts ao = {.label_from = b.opts.label_from};
        b.an = b.own_an = fsc_analysis_new(set, &ao, err, NULL);
        ok = b.an != NULL;
    }
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

size_t fsc_table_drop_empty_rows(fsc_table *t)
{
    size_t k = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        fsc_row *row = &t->rows[r];
        bool any = false;
        for (size_t c = 0; c < t->n_cols && !any; c++)
            any = row->cells && row->cells[c].kind == FSC_CELL_NUM;
        if (any) {
            t->rows[k++] = *row;
            continue;
        }
        if (row->cells)
            for (size_t c = 0; c < t->n_cols; c++)
                free(row->cells[c].text);
        free(row->cells);
        free(row->label);
    }
    t->n_rows = k;
    return k;
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
