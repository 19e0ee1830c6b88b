/* SPDX-License-Identifier: MIT */
/*
 * `compare`: the observations of an analysis (one per run, system, match key and dir)
 * paired by key across systems (the sides); per metric and side the per-run values
 * are the samples, their medians are compared with the baseline side's, and repeats
 * are tested (Mann-Whitney U) where the sample sizes allow a verdict.
 */
#include "emit_int.h"
#include "fioscope/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const fsc_compare_default_metrics = "iops,bw,lat,clat.p99,cpu";

typedef struct cmp_ctx {
    const fsc_analysis *a;
    const fsc_compare_opts *opts;
    fsc_obs_set obs;
    const char *match;
    fsc_mspec *specs; /* numeric metrics */
    size_t n_specs, cap_specs;
    fsc_mval *vals;   /* n_obs × n_specs */
    bool *skip;       /* per observation: left out (--no-split) */
    size_t n_sides;
    /* rows: distinct (key, dir) */
    size_t *row_of_obs;
    size_t n_rows;
    size_t *row_obs_first; /* observations of each row, grouped */
    size_t *row_obs_n;
    size_t *row_obs;
} cmp_ctx;

/* ---- metrics ---- */

static bool parse_metrics(cmp_ctx *c, const char *list, fsc_buf *err)
{
    const char *p = list, *s;
    size_t len;
    while (fsc_list_next(&p, &s, &len)) {
        fsc_mspec spec;
        if (len && !fsc_mspec_parse(s, len, &spec)) {
            size_t nb;
            const char *const *names = fsc_metric_base_names(&nb);
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(len < 63 ? len : 63), s);
            const char *near = fsc_nearest(word, names, nb, 0);
            fsc_buf_printf(err, "unknown metric '%s'", word);
            if (near)
                fsc_buf_printf(err, " (did you mean '%s'?)", near);
            return false;
        }
        if (len && !spec.m.text) { /* text columns say nothing to compare */
            fsc_mspec *slot = FSC_PUSH(c->specs, c->n_specs, c->cap_specs);
            if (!slot)
                return false;
            fsc_mspec_copy(slot, &spec);
        }
    }
    if (!c->n_specs) {
        fsc_buf_puts(err, "no numeric metric to compare");
        return false;
    }
    return true;
}

/* ---- rows ---- */

/* --no-split: the per-direction observations of keys that also have a total go. */
static bool mark_split(cmp_ctx *c)
{
    c->skip = calloc(c->obs.n_obs ? c->obs.n_obs : 1, sizeof *c->skip);
    if (!c->skip)
        return false;
    if (!c->opts->no_split)
        return true;
    bool *has_total = calloc(c->obs.n_keys ? c->obs.n_keys : 1, sizeof *has_total);
    if (!has_total)
        return false;
    for (size_t i = 0; i < c->obs.n_obs; i++)
        if (c->obs.obs[i].dir == FSC_DIR_MIXED)
            has_total[c->obs.obs[i].key] = true;
    for (size_t i = 0; i < c->obs.n_obs; i++)
        c->skip[i] = has_total[c->obs.obs[i].key] && c->obs.obs[i].dir != FSC_DIR_MIXED;
    free(has_total);
    return true;
}

typedef struct sys_obs {
    size_t system, obs;
} sys_obs;

static int cmp_sys_obs(const void *a, const void *b)
{
    const sys_obs *x = a, *y = b;
    if (x->system != y->system)
        return x->system < y->system ? -1 : 1;
    return (x->obs > y->obs) - (x->obs < y->obs);
}

/* The observations of each row ordered by side (then input order), so a side's
 * samples are one slice whatever the number of sides. */
static bool order_by_side(cmp_ctx *c)
{
    size_t max = 0;
    for (size_t r = 0; r < c->n_rows; r++)
        max = c->row_obs_n[r] > max ? c->row_obs_n[r] : max;
    sys_obs *tmp = malloc((max ? max : 1) * sizeof *tmp);
    if (!tmp)
        return false;
    for (size_t r = 0; r < c->n_rows; r++) {
        size_t *slice = c->row_obs + c->row_obs_first[r], n = c->row_obs_n[r];
        for (size_t k = 0; k < n; k++)
            tmp[k] = (sys_obs){c->obs.obs[slice[k]].system, slice[k]};
        qsort(tmp, n, sizeof *tmp, cmp_sys_obs);
        for (size_t k = 0; k < n; k++)
            slice[k] = tmp[k].obs;
    }
    free(tmp);
    return true;
}

static bool group_rows(cmp_ctx *c)
{
    size_t n = c->obs.n_obs ? c->obs.n_obs : 1;
    c->row_of_obs = malloc(n * sizeof *c->row_of_obs);
    c->row_obs = malloc(n * sizeof *c->row_obs);
    c->row_obs_first = calloc(n + 1, sizeof *c->row_obs_first);
    c->row_obs_n = calloc(n + 1, sizeof *c->row_obs_n);
    if (!c->row_of_obs || !c->row_obs || !c->row_obs_first || !c->row_obs_n)
        return false;
    /* (key, dir) → row: keys are dense indexes, dirs few */
    size_t *slot = malloc(c->obs.n_keys * FSC_DIR_COUNT * sizeof *slot + 1);
    if (!slot)
        return false;
    for (size_t i = 0; i < c->obs.n_keys * FSC_DIR_COUNT; i++)
        slot[i] = SIZE_MAX;
    for (size_t i = 0; i < c->obs.n_obs; i++) {
        c->row_of_obs[i] = SIZE_MAX;
        if (c->skip[i])
            continue;
        size_t k = c->obs.obs[i].key * FSC_DIR_COUNT + (size_t)c->obs.obs[i].dir;
        if (slot[k] == SIZE_MAX)
            slot[k] = c->n_rows++;
        c->row_of_obs[i] = slot[k];
        c->row_obs_n[slot[k]]++;
    }
    free(slot);
    size_t at = 0;
    for (size_t r = 0; r < c->n_rows; r++) {
        c->row_obs_first[r] = at;
        at += c->row_obs_n[r];
        c->row_obs_n[r] = 0;
    }
    for (size_t i = 0; i < c->obs.n_obs; i++) {
        size_t r = c->row_of_obs[i];
        if (r != SIZE_MAX)
            c->row_obs[c->row_obs_first[r] + c->row_obs_n[r]++] = i;
    }
    return order_by_side(c);
}

static bool eval_all(cmp_ctx *c)
{
    c->vals = malloc((c->obs.n_obs ? c->obs.n_obs : 1) * c->n_specs * sizeof *c->vals);
    if (!c->vals)
        return false;
    for (size_t i = 0; i < c->obs.n_obs; i++)
        for (size_t m = 0; m < c->n_specs; m++)
            c->vals[i * c->n_specs + m] = fsc_obs_eval(c->a, &c->obs, &c->obs.obs[i], &c->specs[m]);
    return true;
}

/* ---- statistics ---- */

static bool fill_side(cmp_ctx *c, fsc_cmp_side *s, size_t row, size_t side, size_t m)
{
    const size_t *slice = c->row_obs + c->row_obs_first[row];
    size_t n = c->row_obs_n[row], lo = 0, hi = n;
    while (lo < hi) { /* the side's first observation in the row */
        size_t mid = lo + (hi - lo) / 2;
        if (c->obs.obs[slice[mid]].system < side)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < n && c->obs.obs[slice[end]].system == side)
        end++;
    s->samples = calloc(end > lo ? end - lo : 1, sizeof *s->samples);
    if (!s->samples)
        return false;
    for (size_t k = lo; k < end; k++) {
        const fsc_mval *v = &c->vals[slice[k] * c->n_specs + m];
        if (v->set)
            s->samples[s->n++] = v->v;
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

static bool copy_side(fsc_cmp_side *dst, const fsc_cmp_side *src)
{
    *dst = *src;
    dst->samples = calloc(src->n ? src->n : 1, sizeof *dst->samples);
    if (!dst->samples)
        return false;
    memcpy(dst->samples, src->samples, src->n * sizeof *src->samples);
    return true;
}

static void judge(fsc_cmp_cell *cell, const fsc_metric *m, double alpha)
{
    cell->present = cell->base.n && cell->new_.n;
    if (!cell->present)
        return;
    cell->change = cell->new_.median - cell->base.median;
    cell->delta_pct = cell->base.median != 0 ? (cell->new_.median / cell->base.median - 1) * 100 : NAN;
    cell->tested = cell->base.n > 1 || cell->new_.n > 1;
    cell->p = cell->tested ? fsc_mann_whitney_p(cell->base.samples, cell->base.n, cell->new_.samples,
                                                cell->new_.n)
                           : 1;
    cell->decided = fsc_mann_whitney_can_decide(cell->base.n, cell->new_.n, alpha);
    cell->significant = cell->decided && cell->p < alpha;
    if (cell->significant && cell->change != 0)
        cell->verdict = (cell->change > 0) == m->higher_better ? 1 : -1;
}

static void geomean(fsc_comparison *cmp, size_t col, size_t side)
{
    double lb = 0, ln = 0;
    size_t n = 0;
    for (size_t r = 0; r < cmp->n_rows; r++) {
        const fsc_cmp_cell *c = &cmp->rows[r].by_side[col * cmp->n_sides + side];
        if (cmp->rows[r].per_dir || !c->present || c->base.median <= 0 || c->new_.median <= 0)
            continue;
        lb += log(c->base.median);
        ln += log(c->new_.median);
        n++;
    }
    fsc_cmp_cell *g = &cmp->side_geomean[col * cmp->n_sides + side];
    if (!n || side == cmp->baseline)
        return;
    g->present = true;
    g->base.n = g->new_.n = n;
    g->base.median = exp(lb / (double)n);
    g->new_.median = exp(ln / (double)n);
    g->change = g->new_.median - g->base.median;
    g->delta_pct = (exp((ln - lb) / (double)n) - 1) * 100;
    g->decided = g->significant = true; /* a summary of the rows, not a test */
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

static bool add_row(cmp_ctx *c, fsc_comparison *cmp, size_t r, const bool *has_total)
{
    size_t first = c->row_obs[c->row_obs_first[r]];
    const fsc_obs *o0 = &c->obs.obs[first];
    size_t present = 0, only = 0;
    bool *on = calloc(c->n_sides, sizeof *on);
    if (!on)
        return false;
    for (size_t k = 0; k < c->row_obs_n[r]; k++) {
        size_t s = c->obs.obs[c->row_obs[c->row_obs_first[r] + k]].system;
        if (!on[s]) {
            on[s] = true;
            present++;
            only = s;
        }
    }
    free(on);
    bool per_dir = o0->dir != FSC_DIR_MIXED && has_total[o0->key];
    fsc_buf label = {0};
    fsc_buf_puts(&label, c->obs.keys[o0->key]);
    if (per_dir)
        fsc_buf_printf(&label, " [%s]", fsc_ddir_name((fsc_ddir)o0->dir));
    if (label.oom)
        return false;
    if (present < 2) {
        bool ok;
        if (only == cmp->baseline)
            ok = add_only(&cmp->only_base, &cmp->n_only_base, &cmp->cap_only_base, label.data);
        else if (cmp->n_sides == 2)
            ok = add_only(&cmp->only_new, &cmp->n_only_new, &cmp->cap_only_new, label.data);
        else {
            fsc_buf l2 = {0};
            fsc_buf_printf(&l2, "%s: %s", cmp->sides[only], label.data);
            ok = !l2.oom && add_only(&cmp->only_new, &cmp->n_only_new, &cmp->cap_only_new, l2.data);
            fsc_buf_free(&l2);
        }
        fsc_buf_free(&label);
        return ok;
    }
    fsc_cmp_row *row = FSC_PUSH(cmp->rows, cmp->n_rows, cmp->cap_rows);
    if (!row) {
        fsc_buf_free(&label);
        return false;
    }
    memset(row, 0, sizeof *row);
    row->per_dir = per_dir;
    row->label = label.data;
    row->dir = o0->dir;
    row->key = fsc_strdup(c->obs.keys[o0->key]);
    row->cells = calloc(cmp->n_cols ? cmp->n_cols : 1, sizeof *row->cells);
    row->by_side = calloc((cmp->n_cols ? cmp->n_cols : 1) * cmp->n_sides, sizeof *row->by_side);
    if (!row->label || !row->key || !row->cells || !row->by_side)
        return false;
    size_t first_other = cmp->baseline == 0 ? 1 : 0;
    for (size_t m = 0; m < cmp->n_cols; m++) {
        fsc_cmp_side base = {0};
        if (!fill_side(c, &base, r, cmp->baseline, m))
            return false;
        for (size_t s = 0; s < cmp->n_sides; s++) {
            fsc_cmp_cell *cell = &row->by_side[m * cmp->n_sides + s];
            bool ok = copy_side(&cell->base, &base) &&
                      (s == cmp->baseline ? copy_side(&cell->new_, &base) : fill_side(c, &cell->new_, r, s, m));
            if (!ok) {
                free(base.samples);
                return false;
            }
            if (s != cmp->baseline)
                judge(cell, &cmp->cols[m], cmp->alpha);
        }
        free(base.samples);
        fsc_cmp_cell *legacy = &row->cells[m];
        const fsc_cmp_cell *src = &row->by_side[m * cmp->n_sides + first_other];
        *legacy = *src;
        if (!copy_side(&legacy->base, &src->base) || !copy_side(&legacy->new_, &src->new_))
            return false;
    }
    return true;
}

static bool make_cols(cmp_ctx *c, fsc_comparison *cmp)
{
    cmp->cols = calloc(c->n_specs, sizeof *cmp->cols);
    cmp->geomean = calloc(c->n_specs, sizeof *cmp->geomean);
    cmp->side_geomean = calloc(c->n_specs * c->n_sides, sizeof *cmp->side_geomean);
    if (!cmp->cols || !cmp->geomean || !cmp->side_geomean)
        return false;
    for (size_t i = 0; i < c->n_specs; i++, cmp->n_cols++) {
        cmp->cols[i] = c->specs[i].m;
        cmp->cols[i].name = fsc_strdup(c->specs[i].name);
        cmp->cols[i].title = fsc_strdup(c->specs[i].title);
        if (!cmp->cols[i].name || !cmp->cols[i].title)
            return false;
    }
    return true;
}

static bool same_name(const char *a, const char *b)
{
    return !strcmp(a, b) || !strcasecmp(a, b);
}

static fsc_status pick_baseline(const cmp_ctx *c, fsc_comparison *cmp, fsc_buf *err)
{
    cmp->baseline = 0;
    const char *want = c->opts->baseline;
    if (!want)
        return FSC_OK;
    for (size_t s = 0; s < cmp->n_sides; s++)
        if (same_name(cmp->sides[s], want)) {
            cmp->baseline = s;
            return FSC_OK;
        }
    const char *near = fsc_nearest(want, (const char *const *)cmp->sides, cmp->n_sides, 0);
    fsc_buf_printf(err, "--baseline '%s' is none of the sides:", want);
    for (size_t s = 0; s < cmp->n_sides; s++)
        fsc_buf_printf(err, "%s '%s'", s ? "," : "", cmp->sides[s]);
    if (near)
        fsc_buf_printf(err, " (did you mean '%s'?)", near);
    return FSC_E_USAGE;
}

/* Nothing pairs: say which rule would. */
static void explain_unpaired(const cmp_ctx *c, fsc_buf *err)
{
    size_t paired = 0;
    const char *best = fsc_analysis_suggest_match(c->a, &paired);
    fsc_buf_printf(err, "nothing pairs: no %s key is found under two sides (", c->match);
    for (size_t s = 0; s < c->n_sides; s++)
        fsc_buf_printf(err, "%s'%s'", s ? ", " : "", fsc_analysis_system(c->a, s));
    fsc_buf_puts(err, ")");
    if (best && strcmp(best, c->match))
        fsc_buf_printf(err, "; --match %s pairs %zu row%s", best, paired, paired == 1 ? "" : "s");
    else if (!best)
        fsc_buf_puts(err, "; the sides share no workload either (see 'fioscope table -m system,workload,label')");
}

static void ctx_free(cmp_ctx *c)
{
    fsc_obs_set_free(&c->obs);
    free(c->specs);
    free(c->vals);
    free(c->skip);
    free(c->row_of_obs);
    free(c->row_obs_first);
    free(c->row_obs_n);
    free(c->row_obs);
}

fsc_comparison *fsc_compare_analysis(const fsc_analysis *a, const fsc_compare_opts *opts, fsc_buf *err,
                                     fsc_status *st)
{
    fsc_compare_opts defaults = {0};
    fsc_status dummy;
    st = st ? st : &dummy;
    opts = opts ? opts : &defaults;
    cmp_ctx c = {.a = a, .opts = opts, .n_sides = fsc_analysis_n_systems(a)};
    fsc_comparison *cmp = calloc(1, sizeof *cmp);
    *st = FSC_E_NOMEM;
    if (!cmp)
        return NULL;
    cmp->alpha = opts->alpha > 0 ? opts->alpha : 0.05;
    fsc_status s = parse_metrics(&c, opts->metrics ? opts->metrics : fsc_compare_default_metrics, err)
                       ? FSC_OK
                       : err->len ? FSC_E_USAGE : FSC_E_NOMEM;
    if (s == FSC_OK)
        s = fsc_analysis_observe(a, opts->match, &c.obs, &c.match, err);
    if (s == FSC_OK) {
        cmp->n_sides = c.n_sides;
        cmp->sides = calloc(c.n_sides ? c.n_sides : 1, sizeof *cmp->sides);
        cmp->match = fsc_strdup(c.match);
        cmp->system_from = fsc_strdup(fsc_analysis_system_source(a));
        s = cmp->sides && cmp->match && cmp->system_from ? FSC_OK : FSC_E_NOMEM;
        for (size_t i = 0; s == FSC_OK && i < c.n_sides; i++)
            if (!(cmp->sides[i] = fsc_strdup(fsc_analysis_system(a, i))))
                s = FSC_E_NOMEM;
    }
    if (s == FSC_OK)
        s = pick_baseline(&c, cmp, err);
    if (s == FSC_OK && c.n_sides < 2) {
        fsc_buf_printf(err, "nothing to compare: every selected row belongs to one system ('%s')",
                       c.n_sides ? fsc_analysis_system(a, 0) : "");
        fsc_buf_puts(err, "; give 'BASE -- NEW', or name systems with --system-from");
        s = FSC_E_NO_RUNS;
    }
    if (s == FSC_OK)
        s = make_cols(&c, cmp) && mark_split(&c) && group_rows(&c) && eval_all(&c) ? FSC_OK : FSC_E_NOMEM;
    bool *has_total = NULL;
    if (s == FSC_OK) {
        /* a read/write row of a key that also has a total is one direction of it */
        has_total = calloc(c.obs.n_keys ? c.obs.n_keys : 1, sizeof *has_total);
        s = has_total ? FSC_OK : FSC_E_NOMEM;
        for (size_t i = 0; s == FSC_OK && i < c.obs.n_obs; i++)
            if (c.obs.obs[i].dir == FSC_DIR_MIXED && !c.skip[i])
                has_total[c.obs.obs[i].key] = true;
    }
    for (size_t r = 0; s == FSC_OK && r < c.n_rows; r++)
        if (!add_row(&c, cmp, r, has_total))
            s = FSC_E_NOMEM;
    free(has_total);
    if (s == FSC_OK && !cmp->n_rows && c.n_rows) {
        explain_unpaired(&c, err);
        s = FSC_E_NO_RUNS;
    } else if (s == FSC_OK && !c.n_rows) {
        fsc_buf_puts(err, "nothing to compare: no selected row");
        s = FSC_E_NO_RUNS;
    }
    if (s == FSC_OK) {
        size_t first_other = cmp->baseline == 0 ? 1 : 0;
        for (size_t m = 0; m < cmp->n_cols; m++) {
            for (size_t side = 0; side < cmp->n_sides; side++)
                geomean(cmp, m, side);
            cmp->geomean[m] = cmp->side_geomean[m * cmp->n_sides + first_other];
        }
    }
    ctx_free(&c);
    *st = s;
    if (s != FSC_OK) {
        if (!err->len)
            fsc_buf_puts(err, fsc_strerror(s));
        fsc_comparison_free(cmp);
        return NULL;
    }
    return cmp;
}

fsc_comparison *fsc_compare_build_sides(const fsc_runset *const *sets, size_t n_sets,
                                        const fsc_compare_opts *opts, fsc_buf *err, fsc_status *st)
{
    fsc_compare_opts defaults = {0};
    opts = opts ? opts : &defaults;
    fsc_analysis_opts ao = opts->analysis ? *opts->analysis : (fsc_analysis_opts){0};
    ao.label_from = opts->label_from;
    fsc_analysis *a = fsc_analysis_new_sides(sets, opts->side_names, n_sets, &ao, err, st);
    if (!a)
        return NULL;
    fsc_comparison *c = fsc_compare_analysis(a, opts, err, st);
    fsc_analysis_free(a);
    return c;
}

fsc_comparison *fsc_compare_build(const fsc_runset *base, const fsc_runset *new_set,
                                  const fsc_compare_opts *opts, fsc_buf *err, fsc_status *st)
{
    const fsc_runset *sets[2] = {base, new_set};
    return fsc_compare_build_sides(sets, 2, opts, err, st);
}

fsc_comparison *fsc_compare_build_systems(const fsc_runset *set, const fsc_compare_opts *opts, fsc_buf *err,
                                          fsc_status *st)
{
    fsc_compare_opts defaults = {0};
    opts = opts ? opts : &defaults;
    fsc_analysis_opts ao = opts->analysis ? *opts->analysis : (fsc_analysis_opts){0};
    ao.label_from = opts->label_from;
    fsc_analysis *a = fsc_analysis_new(set, &ao, err, st);
    if (!a)
        return NULL;
    fsc_comparison *c = fsc_compare_analysis(a, opts, err, st);
    fsc_analysis_free(a);
    return c;
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
        if (c->rows[r].by_side)
            for (size_t i = 0; i < c->n_cols * c->n_sides; i++)
                free_cell(&c->rows[r].by_side[i]);
        free(c->rows[r].cells);
        free(c->rows[r].by_side);
        free(c->rows[r].label);
        free(c->rows[r].key);
    }
    free(c->rows);
    for (size_t i = 0; i < c->n_cols; i++) {
        free((char *)c->cols[i].name);
        free((char *)c->cols[i].title);
    }
    free(c->cols);
    free(c->geomean);
    free(c->side_geomean);
    for (size_t i = 0; i < c->n_only_base; i++)
        free(c->only_base[i]);
    for (size_t i = 0; i < c->n_only_new; i++)
        free(c->only_new[i]);
    free(c->only_base);
    free(c->only_new);
    for (size_t i = 0; i < c->n_sides; i++)
        free(c->sides[i]);
    free(c->sides);
    free(c->match);
    free(c->system_from);
    free(c);
}
