/* SPDX-License-Identifier: MIT */
/*
 * `compare`: one table per side with a row per (run, label), rows matched by key,
 * per-run values collected as samples, medians compared and repeats tested.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "emit_int.h"
#include "fioscope/compare.h"
#include "fioscope/keyindex.h"

#include <math.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fsc_compare_default_metrics = "iops,bw,lat,clat.p99,cpu";

/* A matched row: the rows of each side's table that carry its key. */
typedef struct cmp_key {
    char *key;
    bool per_dir;
    size_t *rows[2];
    size_t n[2], cap[2];
} cmp_key;

typedef struct cmp_ctx {
    const fsc_compare_opts *opts;
    pcre2_code *re;
    fsc_table *t[2];
    char **label_keys[2]; /* per table row: the key of its label (no direction) */
    cmp_key *keys;
    size_t n_keys, cap_keys;
    fsc_keyindex key_index; /* keys by name: many labels stay linear */
    size_t *num_cols; /* table column of each comparison column */
    size_t n_num;
} cmp_ctx;

/* ---- keys ---- */

static char *regex_key(const pcre2_code *re, const char *label)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    char *key = NULL;
    if (!md)
        return NULL;
    int rc = pcre2_match(re, (PCRE2_SPTR)label, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL);
    if (rc > 0) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        int g = rc > 1 && ov[2] != PCRE2_UNSET ? 1 : 0;
        key = fsc_strndup(label + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
    } else {
        key = fsc_strdup(label);
    }
    pcre2_match_data_free(md);
    return key;
}

static bool make_label_keys(cmp_ctx *c, int side)
{
    const fsc_table *t = c->t[side];
    c->label_keys[side] = calloc(t->n_rows ? t->n_rows : 1, sizeof(char *));
    if (!c->label_keys[side])
        return false;
    for (size_t r = 0; r < t->n_rows; r++) {
        const char *l = t->rows[r].label;
        c->label_keys[side][r] = c->re ? regex_key(c->re, l) : fsc_strdup(l);
        if (!c->label_keys[side][r])
            return false;
    }
    return true;
}

static const char *str_at(const void *items, size_t i)
{
    return ((char *const *)items)[i];
}

/* The one distinct key of a side, or NULL if it has none or several. */
static const char *single_key(char **keys, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (strcmp(keys[i], keys[0]))
            return NULL;
    return n ? keys[0] : NULL;
}

/* Two single-label sides with different names (one job each, renamed) still pair. */
static bool pair_single_labels(cmp_ctx *c)
{
    size_t nb = c->t[0]->n_rows, nn = c->t[1]->n_rows;
    fsc_keyindex base = {0};
    bool indexed = true, shared = false;
    for (size_t r = 0; r < nb && indexed; r++)
        indexed = fsc_keyindex_added(&base, c->label_keys[0], r + 1, str_at);
    for (size_t r = 0; r < nn && indexed && !shared; r++)
        shared = fsc_keyindex_find(&base, c->label_keys[0], nb, str_at, c->label_keys[1][r]) < nb;
    fsc_keyindex_free(&base);
    if (!indexed)
        return false;
    if (shared)
        return true;
    const char *kb = single_key(c->label_keys[0], nb);
    const char *kn = single_key(c->label_keys[1], nn);
    if (!kb || !kn)
        return true;
    for (size_t r = 0; r < nn; r++) {
        free(c->label_keys[1][r]);
        if (!(c->label_keys[1][r] = fsc_strdup(kb)))
            return false;
    }
    return true;
}

static const char *cmp_key_at(const void *items, size_t i)
{
    return ((const cmp_key *)items)[i].key;
}

static cmp_key *find_or_add_key(cmp_ctx *c, const char *key, bool per_dir)
{
    size_t i = fsc_keyindex_find(&c->key_index, c->keys, c->n_keys, cmp_key_at, key);
    if (i < c->n_keys)
        return &c->keys[i];
    cmp_key *k = FSC_PUSH(c->keys, c->n_keys, c->cap_keys);
    if (!k)
        return NULL;
    memset(k, 0, sizeof *k);
    k->per_dir = per_dir;
    k->key = fsc_strdup(key);
    if (!k->key || !fsc_keyindex_added(&c->key_index, c->keys, c->n_keys, cmp_key_at)) {
        free(k->key);
        c->n_keys--;
        return NULL;
    }
    return k;
}

static bool collect_keys(cmp_ctx *c, int side)
{
    const fsc_table *t = c->t[side];
    for (size_t r = 0; r < t->n_rows; r++) {
        const fsc_row *row = &t->rows[r];
        fsc_buf k = {0};
        fsc_buf_puts(&k, c->label_keys[side][r]);
        if (row->dir >= 0)
            fsc_buf_printf(&k, " [%s]", fsc_ddir_name((fsc_ddir)row->dir));
        cmp_key *key = k.oom ? NULL : find_or_add_key(c, k.data ? k.data : "", row->dir >= 0);
        fsc_buf_free(&k);
        size_t *slot = key ? FSC_PUSH(key->rows[side], key->n[side], key->cap[side]) : NULL;
        if (!slot)
            return false;
        *slot = r;
    }
    return true;
}

/* ---- statistics ---- */

static bool fill_side(fsc_cmp_side *s, const fsc_table *t, const size_t *rows, size_t n_rows,
                      size_t col)
{
    s->samples = calloc(n_rows ? n_rows : 1, sizeof *s->samples);
    if (!s->samples)
        return false;
    for (size_t i = 0; i < n_rows; i++) {
        const fsc_cell *cell = &t->rows[rows[i]].cells[col];
        if (cell->kind == FSC_CELL_NUM)
            s->samples[s->n++] = cell->num;
    }
    if (!s->n)
        return true;
    s->median = fsc_median(s->samples, s->n);
    double far = 0;
    for (size_t i = 0; i < s->n; i++)
        far = fmax(far, fabs(s->samples[i] - s->median));
    s->spread_pct = s->median != 0 ? far / fabs(s->median) * 100 : 0;
    return true;
}

static void judge(fsc_cmp_cell *cell, const fsc_metric *m, double alpha)
{
    cell->present = cell->base.n && cell->new_.n;
    if (!cell->present)
        return;
    cell->change = cell->new_.median - cell->base.median;
    cell->delta_pct = cell->base.median != 0 ? (cell->new_.median / cell->base.median - 1) * 100
                                             : NAN;
    cell->tested = cell->base.n > 1 || cell->new_.n > 1;
    cell->p = cell->tested ? fsc_mann_whitney_p(cell->base.samples, cell->base.n,
                                                cell->new_.samples, cell->new_.n)
                           : 1;
    cell->significant = !cell->tested || cell->p < alpha;
    if (cell->significant && cell->change != 0)
        cell->verdict = (cell->change > 0) == m->higher_better ? 1 : -1;
}

static void geomean(fsc_comparison *cmp, size_t col)
{
    double lb = 0, ln = 0;
    size_t n = 0;
    for (size_t r = 0; r < cmp->n_rows; r++) {
        const fsc_cmp_cell *c = &cmp->rows[r].cells[col];
        if (cmp->rows[r].per_dir || !c->present || c->base.median <= 0 || c->new_.median <= 0)
            continue;
        lb += log(c->base.median);
        ln += log(c->new_.median);
        n++;
    }
    fsc_cmp_cell *g = &cmp->geomean[col];
    if (!n)
        return;
    g->present = true;
    g->base.n = g->new_.n = n;
    g->base.median = exp(lb / (double)n);
    g->new_.median = exp(ln / (double)n);
    g->change = g->new_.median - g->base.median;
    g->delta_pct = (exp((ln - lb) / (double)n) - 1) * 100;
    g->significant = true;
    g->p = 1;
    if (g->change != 0)
        g->verdict = (g->change > 0) == cmp->cols[col].higher_better ? 1 : -1;
}

/* ---- assembling ---- */

static bool add_only(char ***list, size_t *n, size_t *cap, const char *key)
{
    char **slot = FSC_PUSH(*list, *n, *cap);
    return slot && (*slot = fsc_strdup(key)) != NULL;
}

static bool add_key_row(cmp_ctx *c, fsc_comparison *cmp, const cmp_key *k)
{
    if (!k->n[0] || !k->n[1])
        return k->n[0] ? add_only(&cmp->only_base, &cmp->n_only_base, &cmp->cap_only_base, k->key)
                       : add_only(&cmp->only_new, &cmp->n_only_new, &cmp->cap_only_new, k->key);
    fsc_cmp_row *row = FSC_PUSH(cmp->rows, cmp->n_rows, cmp->cap_rows);
    if (!row)
        return false;
    memset(row, 0, sizeof *row);
    row->per_dir = k->per_dir;
    row->label = fsc_strdup(k->key);
    row->cells = calloc(c->n_num ? c->n_num : 1, sizeof *row->cells);
    if (!row->label || !row->cells)
        return false;
    for (size_t i = 0; i < c->n_num; i++) {
        fsc_cmp_cell *cell = &row->cells[i];
        if (!fill_side(&cell->base, c->t[0], k->rows[0], k->n[0], c->num_cols[i]) ||
            !fill_side(&cell->new_, c->t[1], k->rows[1], k->n[1], c->num_cols[i]))
            return false;
        judge(cell, &cmp->cols[i], cmp->alpha);
    }
    return true;
}

static bool make_cols(cmp_ctx *c, fsc_comparison *cmp)
{
    const fsc_table *t = c->t[0];
    c->num_cols = calloc(t->n_cols ? t->n_cols : 1, sizeof *c->num_cols);
    cmp->cols = calloc(t->n_cols ? t->n_cols : 1, sizeof *cmp->cols);
    if (!c->num_cols || !cmp->cols)
        return false;
    for (size_t i = 0; i < t->n_cols; i++) {
        if (t->cols[i].text)
            continue;
        fsc_metric *m = &cmp->cols[cmp->n_cols++];
        *m = t->cols[i];
        m->name = fsc_strdup(t->cols[i].name);
        m->title = fsc_strdup(t->cols[i].title);
        c->num_cols[c->n_num++] = i;
        if (!m->name || !m->title)
            return false;
    }
    cmp->geomean = calloc(cmp->n_cols ? cmp->n_cols : 1, sizeof *cmp->geomean);
    return cmp->geomean != NULL;
}

static bool build_sides(cmp_ctx *c, const fsc_runset *sets[2], fsc_buf *err, fsc_status *st)
{
    const fsc_compare_opts *o = c->opts;
    fsc_table_opts to = {.by = FSC_BY_RUN_LABEL, .label_from = o->label_from,
                         .no_split = o->no_split};
    if (o->match && !strcmp(o->match, "jobname"))
        to.label_from = FSC_LABEL_JOB;
    if (o->match && strcmp(o->match, "jobname") && strcmp(o->match, "label")) {
        int code;
        PCRE2_SIZE off;
        c->re = pcre2_compile((PCRE2_SPTR)o->match, PCRE2_ZERO_TERMINATED,
                              PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &off, NULL);
        if (!c->re) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(code, msg, sizeof msg);
            fsc_buf_printf(err, "bad --match regex at offset %zu: %s", (size_t)off, (char *)msg);
            *st = FSC_E_USAGE;
            return false;
        }
    }
    for (int s = 0; s < 2; s++) {
        c->t[s] = fsc_table_build_opts(sets[s], o->metrics ? o->metrics : fsc_compare_default_metrics,
                                       &to, err);
        if (!c->t[s]) {
            *st = err->len && strstr(err->data, "metric") ? FSC_E_USAGE : FSC_E_NOMEM;
            return false;
        }
        if (!make_label_keys(c, s))
            return false;
    }
    return true;
}

static void ctx_free(cmp_ctx *c)
{
    for (int s = 0; s < 2; s++) {
        if (c->label_keys[s] && c->t[s])
            for (size_t r = 0; r < c->t[s]->n_rows; r++)
                free(c->label_keys[s][r]);
        free(c->label_keys[s]);
        fsc_table_free(c->t[s]);
    }
    for (size_t i = 0; i < c->n_keys; i++) {
        free(c->keys[i].key);
        free(c->keys[i].rows[0]);
        free(c->keys[i].rows[1]);
    }
    free(c->keys);
    fsc_keyindex_free(&c->key_index);
    free(c->num_cols);
    pcre2_code_free(c->re);
}

fsc_comparison *fsc_compare_build(const fsc_runset *base, const fsc_runset *new_set,
                                  const fsc_compare_opts *opts, fsc_buf *err, fsc_status *st)
{
    fsc_compare_opts defaults = {0};
    fsc_status dummy;
    cmp_ctx c = {.opts = opts ? opts : &defaults};
    const fsc_runset *sets[2] = {base, new_set};
    st = st ? st : &dummy;
    *st = FSC_E_NOMEM;
    fsc_comparison *cmp = calloc(1, sizeof *cmp);
    bool ok = cmp && build_sides(&c, sets, err, st) && pair_single_labels(&c) &&
              collect_keys(&c, 0) && collect_keys(&c, 1) && make_cols(&c, cmp);
    if (ok) {
        cmp->alpha = c.opts->alpha > 0 ? c.opts->alpha : 0.05;
        for (size_t i = 0; ok && i < c.n_keys; i++)
            ok = add_key_row(&c, cmp, &c.keys[i]);
        for (size_t i = 0; ok && i < cmp->n_cols; i++)
            geomean(cmp, i);
    }
    ctx_free(&c);
    if (!ok) {
        if (!err->len)
            fsc_buf_puts(err, fsc_strerror(*st));
        fsc_comparison_free(cmp);
        return NULL;
    }
    *st = FSC_OK;
    return cmp;
}

static void free_cell(fsc_cmp_cell *c)
{
    free(c->base.samples);
    free(c->new_.samples);
}

void fsc_comparison_free(fsc_comparison *c)
{
    if (!c)
        return;
    for (size_t r = 0; r < c->n_rows; r++) {
        if (c->rows[r].cells)
            for (size_t i = 0; i < c->n_cols; i++)
                free_cell(&c->rows[r].cells[i]);
        free(c->rows[r].cells);
        free(c->rows[r].label);
    }
    free(c->rows);
    for (size_t i = 0; i < c->n_cols; i++) {
        free((char *)c->cols[i].name);
        free((char *)c->cols[i].title);
    }
    free(c->cols);
    free(c->geomean);
    for (size_t i = 0; i < c->n_only_base; i++)
        free(c->only_base[i]);
    for (size_t i = 0; i < c->n_only_new; i++)
        free(c->only_new[i]);
    free(c->only_base);
    free(c->only_new);
    free(c);
}
