/* SPDX-License-Identifier: MIT */
/*
 * Pivots: one row per row key (workload and dir by default), one column per value of
 * a dimension (system by default), each cell the median over runs of a metric.
 */
#include "analyze_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct cellvals {
    double *v;
    size_t n, cap;
} cellvals;

/* The default rows: the workload fields and dir, without the column's dimension;
 * when the columns are not the systems, the system leads (systems are never merged). */
static fsc_status parse_row_key(const fsc_analysis *a, const char *spec, fsc_dim col, int *dims, size_t *n,
                                fsc_buf *err)
{
    *n = 0;
    if (!spec) {
        if (col != FSC_DIM_SYSTEM && a->n_systems > 1)
            dims[(*n)++] = FSC_DIM_SYSTEM;
        for (size_t i = 0; i < a->n_key_dims; i++)
            if (a->key_dims[i] != (int)col)
                dims[(*n)++] = a->key_dims[i];
        if (col != FSC_DIM_DIR)
            dims[(*n)++] = FSC_DIM_DIR;
        return FSC_OK;
    }
    while (*spec) {
        size_t l = strcspn(spec, ",");
        int d = fsc_dim_lookup(spec, l);
        if (d < 0) {
            const char *names[FSC_DIM_COUNT];
            for (int k = 0; k < FSC_DIM_COUNT; k++)
                names[k] = fsc_dim_get((fsc_dim)k)->name;
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(l < 63 ? l : 63), spec);
            const char *near = fsc_nearest(word, names, FSC_DIM_COUNT, 0);
            fsc_buf_printf(err, "unknown field '%s' in the pivot rows", word);
            if (near)
                fsc_buf_printf(err, " (did you mean '%s'?)", near);
            return FSC_E_USAGE;
        }
        if (*n < FSC_DIM_COUNT)
            dims[(*n)++] = d;
        spec += l + (spec[l] == ',');
    }
    return *n ? FSC_OK : FSC_E_USAGE;
}

static bool same_name(const char *a, const char *b)
{
    if (!strcmp(a, b))
        return true;
    fsc_buf x = {0}, y = {0};
    fsc_norm_name(a, &x);
    fsc_norm_name(b, &y);
    bool eq = x.data && y.data && !strcmp(x.data, y.data);
    fsc_buf_free(&x);
    fsc_buf_free(&y);
    return eq;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void finish_cell(fsc_pivot_cell *c, cellvals *v)
{
    c->n = v->n;
    c->delta_pct = NAN;
    if (!v->n)
        return;
    qsort(v->v, v->n, sizeof *v->v, cmp_double);
    c->median = v->n % 2 ? v->v[v->n / 2] : (v->v[v->n / 2 - 1] + v->v[v->n / 2]) / 2;
    double far = fmax(fabs(v->v[0] - c->median), fabs(v->v[v->n - 1] - c->median));
    c->spread_pct = c->median != 0 ? far / fabs(c->median) * 100 : 0;
}

typedef struct pv_ctx {
    fsc_analysis *a;
    const fsc_mspec *m;
    int dims[FSC_DIM_COUNT];
    size_t n_dims;
    fsc_dim col;
    const char **rowkey; /* per selected row */
    const char **colval;
    size_t *of_row;
    size_t n_obs;
    fsc_macc *acc;     /* per observation */
    size_t *obs_cell;  /* per observation: its cell */
    fsc_keymap rows, cols, cells;
    size_t *row_first; /* per pivot row: a selected row that has its key */
    size_t n_rows, cap_rows;
    const char **col_names;
    size_t n_cols, cap_cols;
    cellvals *cv;      /* per (row, col) */
    size_t n_cv, cap_cv;
    size_t *cell_row, *cell_col;
} pv_ctx;

static fsc_status keys_of_rows(pv_ctx *c)
{
    fsc_analysis *a = c->a;
    fsc_buf b = {0};
    for (size_t i = 0; i < a->n_sel; i++) {
        const fsc_arow *r = &a->all[a->sel[i]];
        fsc_buf_reset(&b);
        for (size_t k = 0; k < c->n_dims; k++)
            fsc_buf_printf(&b, "%s\x1f", r->dim[c->dims[k]]);
        c->rowkey[i] = b.oom ? NULL : fsc_pool_str(&a->pool, b.data);
        c->colval[i] = r->dim[c->col];
        if (!c->rowkey[i]) {
            fsc_buf_free(&b);
            return FSC_E_NOMEM;
        }
    }
    fsc_buf_free(&b);
    return FSC_OK;
}

/* Index of a pivot row / column / cell, added on first sight; SIZE_MAX when out of memory. */
static size_t row_of(pv_ctx *c, size_t sel)
{
    fsc_key k = {{(uintptr_t)c->rowkey[sel], 0, 0, 0}};
    size_t at = fsc_keymap_put(&c->rows, &k, c->n_rows);
    if (at == c->n_rows) {
        size_t *slot = FSC_PUSH(c->row_first, c->n_rows, c->cap_rows);
        if (!slot)
            return SIZE_MAX;
        *slot = sel;
    }
    return at;
}

static size_t col_of(pv_ctx *c, size_t sel)
{
    fsc_key k = {{(uintptr_t)c->colval[sel], 0, 0, 0}};
    size_t at = fsc_keymap_put(&c->cols, &k, c->n_cols);
    if (at == c->n_cols) {
        const char **slot = FSC_PUSH(c->col_names, c->n_cols, c->cap_cols);
        if (!slot)
            return SIZE_MAX;
        *slot = c->colval[sel];
    }
    return at;
}

static size_t cell_of(pv_ctx *c, size_t row, size_t col)
{
    fsc_key k = {{row, col, 0, 0}};
    size_t at = fsc_keymap_put(&c->cells, &k, c->n_cv);
    if (at == c->n_cv) {
        cellvals *slot = FSC_PUSH(c->cv, c->n_cv, c->cap_cv);
        if (!slot)
            return SIZE_MAX;
        memset(slot, 0, sizeof *slot);
    }
    return at;
}

static fsc_status collect(pv_ctx *c)
{
    fsc_analysis *a = c->a;
    c->acc = calloc(c->n_obs ? c->n_obs : 1, sizeof *c->acc);
    c->obs_cell = malloc((c->n_obs ? c->n_obs : 1) * sizeof *c->obs_cell);
    if (!c->acc || !c->obs_cell)
        return FSC_E_NOMEM;
    for (size_t o = 0; o < c->n_obs; o++) {
        c->acc[o] = fsc_macc_of(c->m->agg);
        c->obs_cell[o] = SIZE_MAX;
    }
    /* rows and columns in order of first appearance, whatever has numbers */
    for (size_t i = 0; i < a->n_sel; i++) {
        size_t o = c->of_row[i];
        size_t r = row_of(c, i), col = col_of(c, i);
        if (r == SIZE_MAX || col == SIZE_MAX)
            return FSC_E_NOMEM;
        if (c->obs_cell[o] == SIZE_MAX && (c->obs_cell[o] = cell_of(c, r, col)) == SIZE_MAX)
            return FSC_E_NOMEM;
        fsc_macc_add(&c->acc[o], fsc_analysis_eval(a, &a->all[a->sel[i]], c->m));
    }
    for (size_t o = 0; o < c->n_obs; o++) {
        fsc_mval v = fsc_macc_result(&c->acc[o]);
        if (!v.set)
            continue;
        cellvals *cv = &c->cv[c->obs_cell[o]];
        double *slot = FSC_PUSH(cv->v, cv->n, cv->cap);
        if (!slot)
            return FSC_E_NOMEM;
        *slot = v.v;
    }
    return FSC_OK;
}

static fsc_status make_pivot(pv_ctx *c, fsc_pivot *p, const char *baseline, fsc_buf *err)
{
    fsc_analysis *a = c->a;
    p->n_keys = c->n_dims;
    p->key_names = calloc(c->n_dims, sizeof *p->key_names);
    p->cols = calloc(c->n_cols ? c->n_cols : 1, sizeof *p->cols);
    p->rows = calloc(c->n_rows ? c->n_rows : 1, sizeof *p->rows);
    if (!p->key_names || !p->cols || !p->rows)
        return FSC_E_NOMEM;
    for (size_t k = 0; k < c->n_dims; k++)
        if (!(p->key_names[k] = fsc_strdup(fsc_dim_get((fsc_dim)c->dims[k])->name)))
            return FSC_E_NOMEM;
    for (size_t j = 0; j < c->n_cols; j++, p->n_cols++)
        if (!(p->cols[j] = fsc_strdup(c->col_names[j])))
            return FSC_E_NOMEM;
    p->baseline = SIZE_MAX;
    if (baseline) {
        for (size_t j = 0; j < p->n_cols && p->baseline == SIZE_MAX; j++)
            if (same_name(p->cols[j], baseline))
                p->baseline = j;
        if (p->baseline == SIZE_MAX) {
            const char *near = fsc_nearest(baseline, (const char *const *)p->cols, p->n_cols, 0);
            fsc_buf_printf(err, "--baseline '%s' is not a %s of the pivot", baseline,
                           fsc_dim_get(c->col)->name);
            if (near)
                fsc_buf_printf(err, " (did you mean '%s'?)", near);
            else
                for (size_t j = 0; j < p->n_cols; j++)
                    fsc_buf_printf(err, "%s'%s'", j ? ", " : ": ", p->cols[j]);
            return FSC_E_USAGE;
        }
    }
    for (size_t r = 0; r < c->n_rows; r++) {
        bool any = false; /* a row without a number anywhere (write rows of read.iops) goes */
        for (size_t j = 0; j < p->n_cols && !any; j++) {
            fsc_key k = {{r, j, 0, 0}};
            size_t at = fsc_keymap_get(&c->cells, &k);
            any = at != SIZE_MAX && c->cv[at].n;
        }
        if (!any)
            continue;
        fsc_pivot_row *row = &p->rows[p->n_rows++];
        const fsc_arow *src = &a->all[a->sel[c->row_first[r]]];
        row->keys = calloc(c->n_dims, sizeof *row->keys);
        row->cells = calloc(p->n_cols ? p->n_cols : 1, sizeof *row->cells);
        const char *wl = fsc_workload_short(a, src->dim, c->dims, c->n_dims);
        row->workload = wl ? fsc_strdup(wl) : NULL;
        if (!row->keys || !row->cells || !row->workload)
            return FSC_E_NOMEM;
        for (size_t k = 0; k < c->n_dims; k++)
            if (!(row->keys[k] = fsc_strdup(src->dim[c->dims[k]])))
                return FSC_E_NOMEM;
        for (size_t j = 0; j < p->n_cols; j++) {
            fsc_key k = {{r, j, 0, 0}};
            size_t at = fsc_keymap_get(&c->cells, &k);
            cellvals none = {0};
            finish_cell(&row->cells[j], at == SIZE_MAX ? &none : &c->cv[at]);
        }
        if (p->baseline != SIZE_MAX) {
            const fsc_pivot_cell *b = &row->cells[p->baseline];
            for (size_t j = 0; j < p->n_cols; j++)
                if (row->cells[j].n && b->n && b->median != 0)
                    row->cells[j].delta_pct = (row->cells[j].median / b->median - 1) * 100;
        }
    }
    return FSC_OK;
}

static void ctx_free(pv_ctx *c)
{
    free(c->rowkey);
    free(c->colval);
    free(c->of_row);
    free(c->acc);
    free(c->obs_cell);
    fsc_keymap_free(&c->rows);
    fsc_keymap_free(&c->cols);
    fsc_keymap_free(&c->cells);
    free(c->row_first);
    free(c->col_names);
    for (size_t i = 0; i < c->n_cv; i++)
        free(c->cv[i].v);
    free(c->cv);
}

fsc_pivot *fsc_pivot_build(const fsc_analysis *ca, const fsc_mspec *metric, const fsc_pivot_opts *opts,
                           fsc_buf *err, fsc_status *st)
{
    fsc_status dummy;
    fsc_pivot_opts defaults = {.col = FSC_DIM_SYSTEM};
    st = st ? st : &dummy;
    opts = opts ? opts : &defaults;
    fsc_analysis *a = (fsc_analysis *)ca; /* interning only adds strings */
    if (metric->m.text) {
        fsc_buf_printf(err, "a pivot shows numbers: '%s' is a text field", metric->name);
        *st = FSC_E_USAGE;
        return NULL;
    }
    pv_ctx c = {.a = a, .m = metric, .col = (unsigned)opts->col < FSC_DIM_COUNT ? opts->col : FSC_DIM_SYSTEM};
    fsc_pivot *p = calloc(1, sizeof *p);
    size_t n = a->n_sel ? a->n_sel : 1;
    c.rowkey = malloc(n * sizeof *c.rowkey);
    c.colval = malloc(n * sizeof *c.colval);
    c.of_row = malloc(n * sizeof *c.of_row);
    fsc_status s = p && c.rowkey && c.colval && c.of_row ? FSC_OK : FSC_E_NOMEM;
    if (s == FSC_OK)
        s = parse_row_key(a, opts->row_key, c.col, c.dims, &c.n_dims, err);
    if (s == FSC_OK)
        s = keys_of_rows(&c);
    if (s == FSC_OK)
        s = fsc_group_obs(a, c.rowkey, c.colval, c.of_row, &c.n_obs);
    if (s == FSC_OK)
        s = collect(&c);
    if (s == FSC_OK) {
        fsc_mspec_copy(&p->metric, metric);
        p->col_dim = c.col;
        p->workload_rows = !opts->row_key;
        s = make_pivot(&c, p, opts->baseline, err);
    }
    bool empty = true;
    for (size_t r = 0; s == FSC_OK && r < p->n_rows && empty; r++)
        for (size_t j = 0; j < p->n_cols && empty; j++)
            empty = !p->rows[r].cells[j].n;
    if (s == FSC_OK && empty) {
        if (!a->n_all)
            fsc_buf_puts(err, "nothing to pivot: the inputs hold no fio run");
        else if (!a->n_sel)
            fsc_buf_puts(err, "nothing to pivot: --where left no row");
        else
            fsc_buf_printf(err, "nothing to pivot: no selected row has '%s'", metric->name);
        s = FSC_E_NO_RUNS;
    }
    ctx_free(&c);
    *st = s;
    if (s != FSC_OK) {
        if (!err->len)
            fsc_buf_puts(err, fsc_strerror(s));
        fsc_pivot_free(p);
        return NULL;
    }
    return p;
}

void fsc_pivot_free(fsc_pivot *p)
{
    if (!p)
        return;
    for (size_t r = 0; r < p->n_rows; r++) {
        for (size_t k = 0; p->rows[r].keys && k < p->n_keys; k++)
            free(p->rows[r].keys[k]);
        free(p->rows[r].keys);
        free(p->rows[r].cells);
        free(p->rows[r].workload);
    }
    free(p->rows);
    for (size_t k = 0; p->key_names && k < p->n_keys; k++)
        free(p->key_names[k]);
    free(p->key_names);
    for (size_t j = 0; j < p->n_cols; j++)
        free(p->cols[j]);
    free(p->cols);
    free(p);
}
