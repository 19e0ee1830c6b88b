/* SPDX-License-Identifier: MIT */
/*
 * `fioscope report`: builds the analysis (systems, workloads), the tables, the pivots,
 * the comparisons and the charts of a runset once, then writes index.html and
 * report.md (both from templates/), report.xlsx and charts/NAME.png + NAME.svg.
 */
#include "fioscope/report.h"

#include "fioscope/analyze.h"
#include "fioscope/base64.h"
#include "fioscope/chart.h"
#include "fioscope/escape.h"
#include "fioscope/model_json.h"
#include "fioscope/table.h"
#include "report_int.h"
#include "tpl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The metric families: one workbook sheet and one page section each. */
static const fsc_report_family family_specs[] = {
    {"IOPS", "label,run,read.iops,write.iops,trim.iops,mixed.iops", true, NULL},
    {"Bandwidth", "label,run,read.bw_bytes,write.bw_bytes,trim.bw_bytes,mixed.bw_bytes", true, NULL},
    {"Latency",
     "label,run,read.clat_ns.mean,read.clat_ns.p99,read.clat_ns.max,write.clat_ns.mean,"
     "write.clat_ns.p99,write.clat_ns.max,trim.clat_ns.mean,trim.clat_ns.p99,read.lat_ns.mean,"
     "write.lat_ns.mean,mixed.clat_ns.mean,mixed.clat_ns.p99",
     true, NULL},
    {"CPU", "label,run,usr_cpu,sys_cpu,ctx,majf,minf", false, NULL},
    /* metrics made from what the runs hold (prio_metrics) */
    {"Priorities", NULL, false, NULL},
};
#define PRIO_FAMILY 4
#define N_FAMILIES (sizeof family_specs / sizeof family_specs[0])

/* Pivots (workload × system) and comparisons: metric and title. */
static const struct {
    const char *metric, *title;
} pivot_specs[] = {
    {"iops", "IOPS"},
    {"bw", "Bandwidth"},
    {"clat", "Mean completion latency"},
    {"clat.p99", "p99 completion latency"},
};
#define N_PIVOTS (sizeof pivot_specs / sizeof pivot_specs[0])

typedef struct report {
    const fsc_runset *set;
    const fsc_report_opts *o;
    fsc_buf *err;
    fsc_analysis *a;
    size_t n_sys, baseline;
    fsc_table *summary;
    fsc_report_family fam[N_FAMILIES];
    fsc_pivot *piv[N_PIVOTS];
    const char *piv_title[N_PIVOTS];
    size_t n_piv;
    fsc_xlsx_cmp *cmp;
    size_t n_cmp, cap_cmp;
    char **cmp_strings; /* workload names the comparison rows point to */
    size_t n_cmp_strings, cap_cmp_strings;
    fsc_rcharts rc;
    const char *no_workbook; /* why report.xlsx is not written (the library's message), or NULL */
    fsc_outdir out;
} report;

/* ---- tables ---- */

static bool column_has_data(const fsc_table *t, size_t col)
{
    /* fio prints directions a job did not do as zeros: a column of zeros says nothing. */
    for (size_t i = 0; i < t->n_rows; i++) {
        const fsc_cell *c = &t->rows[i].cells[col];
        if (c->kind == FSC_CELL_TEXT || (c->kind == FSC_CELL_NUM && c->num != 0))
            return true;
    }
    return false;
}

static fsc_table *build(const fsc_runset *set, const fsc_analysis *a, const char *metrics, fsc_label_from from,
                        fsc_buf *err)
{
    fsc_buf e = {0};
    fsc_table_opts o = {.by = FSC_BY_JOB, .label_from = from, .analysis = a};
    fsc_table *t = fsc_table_build_opts(set, metrics, &o, &e);
    if (!t)
        fsc_buf_printf(err, "report: table '%s': %s", metrics ? metrics : "(default metrics)", e.data ? e.data : "out of memory");
    fsc_buf_free(&e);
    return t;
}

fsc_status fsc_report_trimmed(const fsc_runset *set, const fsc_analysis *a, const char *metrics,
                              fsc_label_from from, fsc_table **out, fsc_buf *err)
{
    *out = NULL;
    fsc_table *t = build(set, a, metrics, from, err);
    if (!t)
        return FSC_E_USAGE;
    fsc_buf keep = {0};
    bool numbers = false;
    for (size_t c = 0; c < t->n_cols; c++)
        if (t->cols[c].text || column_has_data(t, c)) {
            fsc_buf_printf(&keep, "%s%s", keep.len ? "," : "", t->cols[c].name);
            numbers |= !t->cols[c].text;
        }
    fsc_table_free(t);
    if (keep.oom) {
        fsc_buf_free(&keep);
        return FSC_E_NOMEM;
    }
    if (numbers) {
        *out = build(set, a, keep.data, from, err);
        fsc_buf_free(&keep);
        return *out ? FSC_OK : FSC_E_USAGE;
    }
    fsc_buf_free(&keep);
    return FSC_OK;
}

/* Priorities a section shows, at most (a job file of many classes and levels). */
enum { PRIO_KEYS_MAX = 16 };

/* The Priorities section's metrics: the mean and p99 latency of every direction's
 * every priority the runs hold (cmdprio_percentage, jobs of several prio summed by
 * group_reporting: fio 3.18-3.29's high and low, 3.30+'s class/level), in order of
 * first appearance; "" when no job has any, NULL when out of memory. */
static char *prio_metrics(const fsc_runset *set)
{
    char keys[PRIO_KEYS_MAX][48];
    size_t n_keys = 0;
    for (size_t i = 0; i < set->n_runs; i++)
        for (size_t j = 0; j < set->runs[i]->n_jobs; j++)
            for (int d = 0; d < FSC_DIR_COUNT; d++) {
                const fsc_dir *dp = &set->runs[i]->jobs[j].dir[d];
                for (size_t k = 0; k < dp->n_prios && n_keys < PRIO_KEYS_MAX; k++) {
                    fsc_prio_metric_stem(keys[n_keys], sizeof keys[n_keys], d, &dp->prios[k]);
                    size_t m = 0;
                    while (m < n_keys && strcmp(keys[m], keys[n_keys]))
                        m++;
                    n_keys += m == n_keys;
                }
            }
    fsc_buf out = {0};
    fsc_buf_puts(&out, n_keys ? "label,run" : "");
    for (size_t m = 0; m < n_keys; m++)
        fsc_buf_printf(&out, ",%s.mean,%s.p99", keys[m], keys[m]);
    if (out.oom) {
        fsc_buf_free(&out);
        return NULL;
    }
    return out.data ? out.data : fsc_strdup("");
}

static fsc_status build_tables(report *r)
{
    r->summary = build(r->set, r->a, NULL, r->o->label_from, r->err);
    if (!r->summary)
        return FSC_E_USAGE;
    for (size_t i = 0; i < N_FAMILIES; i++) {
        r->fam[i] = family_specs[i];
        char *made = i == PRIO_FAMILY ? prio_metrics(r->set) : NULL;
        if (i == PRIO_FAMILY && !made)
            return FSC_E_NOMEM;
        fsc_status st = made && !*made ? FSC_OK /* no priorities: no section */
                                       : fsc_report_trimmed(r->set, r->a, made ? made : family_specs[i].metrics,
                                                            r->o->label_from, &r->fam[i].table, r->err);
        free(made);
        if (st != FSC_OK)
            return st;
        if (i == PRIO_FAMILY && r->fam[i].table && !fsc_table_drop_empty_rows(r->fam[i].table)) {
            fsc_table_free(r->fam[i].table); /* the jobs with priorities only */
            r->fam[i].table = NULL;
        }
    }
    return FSC_OK;
}

/* ---- analysis: systems, pivots, comparisons ---- */

static fsc_status build_analysis(report *r)
{
    fsc_analysis_opts ao = {.label_from = r->o->label_from,
                            .system_from = r->o->system_from,
                            .workload_key = r->o->workload_key,
                            .where = r->o->where,
                            .n_where = r->o->n_where,
                            .inputs = r->o->inputs,
                            .n_inputs = r->o->n_inputs};
    fsc_status st = FSC_OK;
    r->a = fsc_analysis_new(r->set, &ao, r->err, &st);
    if (!r->a)
        return st != FSC_OK ? st : FSC_E_NOMEM;
    r->n_sys = fsc_analysis_n_systems(r->a);
    if (!r->o->baseline)
        return FSC_OK;
    const char **names = malloc((r->n_sys + 1) * sizeof *names);
    if (!names)
        return FSC_E_NOMEM;
    for (size_t i = 0; i < r->n_sys; i++) {
        names[i] = fsc_analysis_system(r->a, i);
        if (!strcmp(names[i], r->o->baseline)) {
            r->baseline = i;
            free(names);
            return FSC_OK;
        }
    }
    const char *near = fsc_nearest(r->o->baseline, names, r->n_sys, 0);
    fsc_buf_printf(r->err, "--baseline: no system is called '%s'%s%s%s", r->o->baseline, near ? " (did you mean '" : "",
                   near ? near : "", near ? "'?)" : "");
    free(names);
    return FSC_E_RANGE;
}

static fsc_status build_pivots(report *r)
{
    fsc_pivot_opts po = {.col = FSC_DIM_SYSTEM,
                         .row_key = NULL,
                         .baseline = r->n_sys >= 2 ? fsc_analysis_system(r->a, r->baseline) : NULL};
    for (size_t i = 0; i < N_PIVOTS; i++) {
        fsc_mspec m;
        if (!fsc_mspec_parse(pivot_specs[i].metric, strlen(pivot_specs[i].metric), &m))
            continue;
        fsc_buf err = {0};
        fsc_status st = FSC_OK;
        fsc_pivot *p = fsc_pivot_build(r->a, &m, &po, &err, &st);
        fsc_buf_free(&err);
        if (!p && st == FSC_E_NOMEM)
            return st;
        if (!p)
            continue; /* no row has this metric */
        r->piv[r->n_piv] = p;
        r->piv_title[r->n_piv++] = pivot_specs[i].title;
    }
    return FSC_OK;
}

static const char *keep_string(report *r, const char *s)
{
    char *copy = fsc_strdup(s);
    char **slot = copy ? FSC_PUSH(r->cmp_strings, r->n_cmp_strings, r->cap_cmp_strings) : NULL;
    if (!slot) {
        free(copy);
        return NULL;
    }
    *slot = copy;
    return copy;
}

/* One comparison row per workload, direction, metric and system other than the
 * baseline: medians of the repeats, change, and the Mann-Whitney p where the repeats
 * can decide at all. */
static fsc_status build_comparisons(report *r)
{
    if (r->n_sys < 2)
        return FSC_OK;
    fsc_obs_set os = {0};
    const char *used = NULL;
    fsc_buf err = {0};
    fsc_status st = fsc_analysis_observe(r->a, "workload", &os, &used, &err);
    fsc_buf_free(&err);
    if (st != FSC_OK)
        return st == FSC_E_NOMEM ? st : FSC_OK;
    double *base = malloc((os.n_obs + 1) * sizeof *base), *other = malloc((os.n_obs + 1) * sizeof *other);
    if (!base || !other)
        st = FSC_E_NOMEM;
    const char *base_name = fsc_analysis_system(r->a, r->baseline);
    for (size_t k = 0; st == FSC_OK && k < os.n_keys; k++)
        for (int d = 0; st == FSC_OK && d < FSC_DIR_COUNT; d++)
            for (size_t mi = 0; st == FSC_OK && mi < N_PIVOTS; mi++) {
                fsc_mspec m;
                if (!fsc_mspec_parse(pivot_specs[mi].metric, strlen(pivot_specs[mi].metric), &m))
                    continue;
                size_t nb = 0;
                for (size_t i = 0; i < os.n_obs; i++) {
                    const fsc_obs *o = &os.obs[i];
                    if (o->key != k || o->dir != d || o->system != r->baseline)
                        continue;
                    fsc_mval v = fsc_obs_eval(r->a, &os, o, &m);
                    if (v.set && isfinite(v.v))
                        base[nb++] = v.v;
                }
                if (!nb)
                    continue;
                for (size_t s = 0; st == FSC_OK && s < r->n_sys; s++) {
                    if (s == r->baseline)
                        continue;
                    size_t n = 0;
                    for (size_t i = 0; i < os.n_obs; i++) {
                        const fsc_obs *o = &os.obs[i];
                        if (o->key != k || o->dir != d || o->system != s)
                            continue;
                        fsc_mval v = fsc_obs_eval(r->a, &os, o, &m);
                        if (v.set && isfinite(v.v))
                            other[n++] = v.v;
                    }
                    if (!n)
                        continue;
                    fsc_xlsx_cmp *c = FSC_PUSH(r->cmp, r->n_cmp, r->cap_cmp);
                    const char *wl = c ? keep_string(r, os.keys[k]) : NULL;
                    if (!wl) {
                        st = FSC_E_NOMEM;
                        break;
                    }
                    double mb = fsc_median(base, nb), mv = fsc_median(other, n);
                    *c = (fsc_xlsx_cmp){wl,
                                        fsc_rowdir_name(d),
                                        pivot_specs[mi].title,
                                        base_name,
                                        fsc_analysis_system(r->a, s),
                                        m.m.unit,
                                        mb,
                                        mv,
                                        mb != 0 ? (mv / mb - 1) * 100 : NAN,
                                        nb,
                                        n,
                                        fsc_mann_whitney_can_decide(nb, n, 0.05) ? fsc_mann_whitney_p(base, nb, other, n)
                                                                                 : NAN};
                }
            }
    free(base);
    free(other);
    fsc_obs_set_free(&os);
    return st;
}

/* ---- pages ---- */

static bool set_num(fsc_tpl_vars *v, const char *name, size_t n)
{
    char s[32];
    snprintf(s, sizeof s, "%zu", n);
    return fsc_tpl_set(v, name, s);
}

static size_t count_jobs(const fsc_runset *set)
{
    size_t n = 0;
    for (size_t i = 0; i < set->n_runs; i++)
        n += set->runs[i]->n_jobs;
    return n;
}

/* Tables rendered in the page's format: "html" or "md". */
static bool table_vars(report *r, fsc_tpl_vars *v, const char *format)
{
    fsc_buf b = {0};
    bool ok = fsc_table_render(r->summary, format, &b) == FSC_OK && !b.oom &&
              fsc_tpl_set_trusted(v, "summary_table", b.data ? b.data : "");
    for (size_t i = 0; ok && i < N_FAMILIES; i++) {
        if (!r->fam[i].table)
            continue;
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "families");
        fsc_buf_reset(&b);
        ok = item && fsc_tpl_set(item, "title", r->fam[i].sheet) &&
             fsc_table_render(r->fam[i].table, format, &b) == FSC_OK && !b.oom &&
             fsc_tpl_set_trusted(item, "table", b.data ? b.data : "");
    }
    fsc_buf_free(&b);
    return ok;
}

static void human(fsc_buf *b, double v, fsc_unit u)
{
    if (isfinite(v))
        fsc_format_human(b, v, u);
}

static void change_text(fsc_buf *b, double pct)
{
    if (isfinite(pct))
        fsc_buf_printf(b, "%s%.1f%%", pct >= 0 ? "+" : "\xe2\x88\x92", fabs(pct));
}

/* "better" / "worse" for a change of a metric (higher is better for IOPS). */
static const char *change_class(double pct, const fsc_mspec *m)
{
    if (!isfinite(pct) || fabs(pct) < 0.05)
        return "same";
    return (pct > 0) == m->m.higher_better ? "better" : "worse";
}

/* A pivot as an HTML table (sortable; numbers carry data-v) or a Markdown table. */
static void pivot_table(const report *r, const fsc_pivot *p, bool html, fsc_buf *b)
{
    size_t bl = p->baseline;
    if (html) {
        fsc_buf_puts(b, "<table class=\"fsc-table pivot\">\n<thead><tr><th>workload</th><th>dir</th>");
        for (size_t c = 0; c < p->n_cols; c++) {
            char hex[8];
            fsc_chart_color_hex((int)c, hex);
            fsc_buf_printf(b, "<th class=\"num\"><span class=\"swatch\" style=\"background:%s\"></span>", hex);
            fsc_html_escape(b, p->cols[c]);
            fsc_buf_puts(b, "</th>");
        }
        for (size_t c = 0; bl != SIZE_MAX && c < p->n_cols; c++)
            if (c != bl) {
                fsc_buf_puts(b, "<th class=\"num\">");
                fsc_html_escape(b, p->cols[c]);
                fsc_buf_puts(b, " vs ");
                fsc_html_escape(b, p->cols[bl]);
                fsc_buf_puts(b, "</th>");
            }
        fsc_buf_puts(b, "</tr></thead>\n<tbody>\n");
    } else {
        fsc_buf_puts(b, "| workload | dir |");
        for (size_t c = 0; c < p->n_cols; c++) {
            fsc_buf_putc(b, ' ');
            fsc_esc_md(b, p->cols[c]);
            fsc_buf_puts(b, " |");
        }
        for (size_t c = 0; bl != SIZE_MAX && c < p->n_cols; c++)
            if (c != bl) {
                fsc_buf_putc(b, ' ');
                fsc_esc_md(b, p->cols[c]);
                fsc_buf_puts(b, " vs ");
                fsc_esc_md(b, p->cols[bl]);
                fsc_buf_puts(b, " |");
            }
        fsc_buf_puts(b, "\n| --- | --- |");
        for (size_t c = 0; c < p->n_cols + (bl != SIZE_MAX ? p->n_cols - 1 : 0); c++)
            fsc_buf_puts(b, " ---: |");
        fsc_buf_putc(b, '\n');
    }
    size_t dir_key = SIZE_MAX;
    for (size_t k = 0; k < p->n_keys; k++)
        if (!strcmp(p->key_names[k], "dir"))
            dir_key = k;
    for (size_t i = 0; i < p->n_rows; i++) {
        const fsc_pivot_row *row = &p->rows[i];
        const char *dir = dir_key != SIZE_MAX ? row->keys[dir_key] : "";
        if (html) {
            fsc_buf_puts(b, "<tr><td>");
            fsc_html_escape(b, row->workload);
            fsc_buf_puts(b, "</td><td>");
            fsc_html_escape(b, dir);
            fsc_buf_puts(b, "</td>");
        } else {
            fsc_buf_puts(b, "| ");
            fsc_esc_md(b, row->workload);
            fsc_buf_puts(b, " | ");
            fsc_esc_md(b, dir);
            fsc_buf_puts(b, " |");
        }
        for (size_t c = 0; c < p->n_cols; c++) {
            const fsc_pivot_cell *cell = &row->cells[c];
            if (html) {
                if (cell->n) {
                    fsc_buf_puts(b, "<td class=\"num\" data-v=\"");
                    fsc_buf_num(b, cell->median);
                    fsc_buf_printf(b, "\" title=\"median of %zu run%s\">", cell->n, cell->n == 1 ? "" : "s");
                    human(b, cell->median, p->metric.m.unit);
                    fsc_buf_puts(b, "</td>");
                } else
                    fsc_buf_puts(b, "<td class=\"num\"></td>");
            } else {
                fsc_buf_putc(b, ' ');
                if (cell->n)
                    human(b, cell->median, p->metric.m.unit);
                fsc_buf_puts(b, " |");
            }
        }
        for (size_t c = 0; bl != SIZE_MAX && c < p->n_cols; c++) {
            if (c == bl)
                continue;
            double d = row->cells[c].n && row->cells[bl].n ? row->cells[c].delta_pct : NAN;
            if (html) {
                fsc_buf_printf(b, "<td class=\"num %s\"", change_class(d, &p->metric));
                if (isfinite(d)) {
                    fsc_buf_puts(b, " data-v=\"");
                    fsc_buf_num(b, d);
                    fsc_buf_putc(b, '"');
                }
                fsc_buf_putc(b, '>');
                change_text(b, d);
                fsc_buf_puts(b, "</td>");
            } else {
                fsc_buf_putc(b, ' ');
                change_text(b, d);
                fsc_buf_puts(b, " |");
            }
        }
        fsc_buf_puts(b, html ? "</tr>\n" : "\n");
    }
    if (html)
        fsc_buf_puts(b, "</tbody>\n</table>\n");
    (void)r;
}

static void verdict(fsc_buf *b, const fsc_xlsx_cmp *c)
{
    if (!isfinite(c->p))
        fsc_buf_printf(b, "~ (n=%zu+%zu)", c->n_base, c->n);
    else
        fsc_buf_printf(b, "p=%.3g%s", c->p, c->p < 0.05 ? " *" : "");
}

/* The comparison rows as one table. */
static void compare_table(const report *r, bool html, fsc_buf *b)
{
    static const char *const heads[] = {"workload", "dir", "metric", "system", "baseline", "value", "change",
                                        "repeats / p"};
    if (html) {
        fsc_buf_puts(b, "<table class=\"fsc-table compare\">\n<thead><tr>");
        for (size_t i = 0; i < FSC_ARRAY_SIZE(heads); i++)
            fsc_buf_printf(b, "<th%s>%s</th>", i >= 4 && i <= 6 ? " class=\"num\"" : "", heads[i]);
        fsc_buf_puts(b, "</tr></thead>\n<tbody>\n");
    } else {
        fsc_buf_puts(b, "| workload | dir | metric | system | baseline | value | change | repeats / p |\n"
                        "| --- | --- | --- | --- | ---: | ---: | ---: | --- |\n");
    }
    for (size_t i = 0; i < r->n_cmp; i++) {
        const fsc_xlsx_cmp *c = &r->cmp[i];
        fsc_mspec m = {0};
        for (size_t k = 0; k < N_PIVOTS; k++)
            if (!strcmp(pivot_specs[k].title, c->metric))
                fsc_mspec_parse(pivot_specs[k].metric, strlen(pivot_specs[k].metric), &m);
        const char *texts[] = {c->workload, c->dir, c->metric, c->system};
        if (html) {
            fsc_buf_puts(b, "<tr>");
            for (size_t t = 0; t < 4; t++) {
                fsc_buf_puts(b, "<td>");
                fsc_html_escape(b, texts[t]);
                fsc_buf_puts(b, "</td>");
            }
            fsc_buf_puts(b, "<td class=\"num\" data-v=\"");
            fsc_buf_num(b, c->base_v);
            fsc_buf_puts(b, "\">");
            human(b, c->base_v, c->unit);
            fsc_buf_puts(b, "</td><td class=\"num\" data-v=\"");
            fsc_buf_num(b, c->v);
            fsc_buf_puts(b, "\">");
            human(b, c->v, c->unit);
            fsc_buf_printf(b, "</td><td class=\"num %s\"", change_class(c->delta_pct, &m));
            if (isfinite(c->delta_pct)) {
                fsc_buf_puts(b, " data-v=\"");
                fsc_buf_num(b, c->delta_pct);
                fsc_buf_putc(b, '"');
            }
            fsc_buf_putc(b, '>');
            change_text(b, c->delta_pct);
            fsc_buf_puts(b, "</td><td>");
            verdict(b, c);
            fsc_buf_puts(b, "</td></tr>\n");
        } else {
            fsc_buf_puts(b, "|");
            for (size_t t = 0; t < 4; t++) {
                fsc_buf_putc(b, ' ');
                fsc_esc_md(b, texts[t]);
                fsc_buf_puts(b, " |");
            }
            fsc_buf_putc(b, ' ');
            human(b, c->base_v, c->unit);
            fsc_buf_puts(b, " | ");
            human(b, c->v, c->unit);
            fsc_buf_puts(b, " | ");
            change_text(b, c->delta_pct);
            fsc_buf_puts(b, " | ");
            verdict(b, c);
            fsc_buf_puts(b, " |\n");
        }
    }
    if (html)
        fsc_buf_puts(b, "</tbody>\n</table>\n");
}

static bool analysis_vars(report *r, fsc_tpl_vars *v, bool html)
{
    bool multi = r->n_sys >= 2;
    bool ok = set_num(v, "n_systems", r->n_sys) && fsc_tpl_set(v, "multi_system", multi ? "yes" : "") &&
              fsc_tpl_set(v, "baseline", multi ? fsc_analysis_system(r->a, r->baseline) : "") &&
              fsc_tpl_set(v, "system_source", fsc_analysis_system_source(r->a)) &&
              fsc_tpl_set(v, "workload_key", fsc_analysis_workload_key(r->a));
    for (size_t i = 0; ok && multi && i < r->n_sys; i++) {
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "systems");
        char hex[8];
        fsc_chart_color_hex((int)i, hex);
        ok = item && fsc_tpl_set(item, "name", fsc_analysis_system(r->a, i)) && fsc_tpl_set(item, "color", hex) &&
             fsc_tpl_set(item, "is_baseline", i == r->baseline ? "yes" : "");
    }
    fsc_buf b = {0};
    for (size_t i = 0; ok && multi && i < r->n_piv; i++) {
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "pivots");
        fsc_buf_reset(&b);
        pivot_table(r, r->piv[i], html, &b);
        ok = item && !b.oom && fsc_tpl_set(item, "title", r->piv_title[i]) &&
             fsc_tpl_set_trusted(item, "table", b.data ? b.data : "");
    }
    fsc_buf_reset(&b);
    if (ok && r->n_cmp)
        compare_table(r, html, &b);
    ok = ok && !b.oom && fsc_tpl_set_trusted(v, "compare_table", b.data ? b.data : "") &&
         fsc_tpl_set(v, "has_compare", r->n_cmp ? "yes" : "");
    fsc_buf_free(&b);
    ok = ok && fsc_tpl_set(v, "has_notes", fsc_analysis_n_notes(r->a) ? "yes" : "");
    for (size_t i = 0; ok && i < fsc_analysis_n_notes(r->a); i++) {
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "notes");
        ok = item && fsc_tpl_set(item, "text", fsc_analysis_note(r->a, i));
    }
    return ok;
}

static bool chart_vars(report *r, fsc_tpl_vars *v, bool inline_png)
{
    fsc_buf b = {0};
    bool ok = true;
    for (size_t i = 0; ok && i < r->rc.n_charts; i++) {
        const fsc_report_chart *c = &r->rc.charts[i];
        /* charts over time (from log files) have a section of their own */
        fsc_tpl_vars *item = fsc_tpl_add_item(v, c->over_time ? "time_charts" : "charts");
        fsc_buf_reset(&b);
        fsc_buf_printf(&b, "charts/%s.png", c->file);
        ok = item && !b.oom && fsc_tpl_set(item, "title", c->title) && fsc_tpl_set(item, "file", b.data) &&
             fsc_tpl_set(item, "name", c->file);
        fsc_buf_reset(&b);
        fsc_buf_printf(&b, "charts/%s.svg", c->file);
        ok = ok && !b.oom && fsc_tpl_set(item, "svg", b.data);
        if (ok && inline_png) {
            fsc_buf_reset(&b);
            fsc_b64_encode(&b, (const unsigned char *)c->png.data, c->png.len);
            ok = !b.oom && fsc_tpl_set(item, "png_base64", b.data ? b.data : "");
        }
    }
    bool over_time = false;
    for (size_t i = 0; i < r->rc.n_charts; i++)
        over_time |= r->rc.charts[i].over_time;
    ok = ok && fsc_tpl_set(v, "has_time", over_time ? "yes" : "") &&
         fsc_tpl_set(v, "charts_missing", r->rc.unavailable ? r->rc.unavailable : "") &&
         fsc_tpl_set(v, "has_charts", r->rc.n_charts ? "yes" : "") &&
         fsc_tpl_set(v, "charts_plain", r->rc.n_charts && fsc_chart_plain_text(NULL) ? "yes" : "");
    for (size_t i = 0; ok && i < r->rc.n_skips; i++) {
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "skipped");
        ok = item && fsc_tpl_set(item, "title", r->rc.skips[i].title) &&
             fsc_tpl_set(item, "reason", r->rc.skips[i].reason);
    }
    fsc_buf_free(&b);
    return ok;
}

static bool source_vars(report *r, fsc_tpl_vars *v)
{
    bool ok = true;
    fsc_buf b = {0};
    for (size_t i = 0; ok && i < r->set->n_runs; i++) {
        const fsc_run *run = r->set->runs[i];
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "sources");
        fsc_buf_reset(&b);
        fsc_buf_printf(&b, "%u–%u", (unsigned)run->source.first_line, (unsigned)run->source.last_line);
        ok = item && !b.oom && fsc_tpl_set(item, "id", run->id) && fsc_tpl_set(item, "label", run->label) &&
             fsc_tpl_set(item, "path", run->source.path) &&
             fsc_tpl_set(item, "member", run->source.member) && fsc_tpl_set(item, "lines", b.data) &&
             fsc_tpl_set(item, "format", fsc_format_name(run->source.format)) &&
             fsc_tpl_set(item, "fio_version", run->source.fio_version ? run->source.fio_version : "?") &&
             set_num(item, "jobs", run->n_jobs) && set_num(item, "n_warnings", run->n_warnings) &&
             fsc_tpl_set(item, "has_warnings", run->n_warnings ? "yes" : "");
        for (size_t w = 0; ok && w < run->n_warnings; w++) {
            fsc_tpl_vars *wi = fsc_tpl_add_item(item, "warnings");
            ok = wi && set_num(wi, "line", run->warnings[w].line) &&
                 fsc_tpl_set(wi, "message", run->warnings[w].message);
        }
    }
    fsc_buf_free(&b);
    return ok;
}

/* An input's error: its first note, and the others (a file of no run keeps up to 20,
 * a line each, then "and K more notes") as a list of their own: joined in one
 * paragraph they read as one sentence. */
static bool error_vars(fsc_tpl_vars *item, const char *error)
{
    const char *nl = strchr(error, '\n');
    char *first = nl ? fsc_strndup(error, (size_t)(nl - error)) : NULL;
    bool ok = (!nl || first) && fsc_tpl_set(item, "error", nl ? first : error) &&
              fsc_tpl_set(item, "has_input_notes", nl ? "yes" : "");
    free(first);
    for (const char *p = nl ? nl + 1 : NULL; ok && p && *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        fsc_tpl_vars *note = fsc_tpl_add_item(item, "input_notes");
        char *text = note ? fsc_strndup(p, n) : NULL;
        ok = text && fsc_tpl_set(note, "note", text);
        free(text);
        p = end ? end + 1 : p + n;
    }
    return ok;
}

static bool input_vars(report *r, fsc_tpl_vars *v)
{
    static const char *const status[] = {"ok", "no-runs", "error"};
    const fsc_manifest *m = r->o->manifest;
    bool ok = fsc_tpl_set(v, "has_bad_inputs", "");
    for (size_t i = 0; m && ok && i < m->n; i++) {
        const fsc_input_entry *e = &m->items[i];
        if (e->status == FSC_IN_OK)
            continue;
        fsc_tpl_vars *item = fsc_tpl_add_item(v, "bad_inputs");
        ok = item && fsc_tpl_set(v, "has_bad_inputs", "yes") && fsc_tpl_set(item, "path", e->path) &&
             fsc_tpl_set(item, "member", e->member) && fsc_tpl_set(item, "status", status[e->status]) &&
             error_vars(item, e->error ? e->error : "no fio run found");
    }
    return ok;
}

/* The runs as the contract's JSON, safe inside <script>: every '<' is written \u003c. */
static bool data_json(report *r, fsc_tpl_vars *v)
{
    fsc_buf b = {0};
    fsc_jw w;
    fsc_jw_init(&w, &b, false, true);
    fsc_json_opts jo = {.damage = false};
    fsc_jw_arr(&w);
    for (size_t i = 0; i < r->set->n_runs; i++)
        fsc_model_write_run(&w, r->set->runs[i], &jo);
    fsc_jw_arr_end(&w);
    /* Every '<' sits inside a JSON string; \u003c keeps "<!--" and "<script" (which
     * change how a browser looks for </script>) out of the page as well. */
    fsc_buf safe = {0};
    for (size_t i = 0; i < b.len; i++)
        if (b.data[i] == '<')
            fsc_buf_puts(&safe, "\\u003c");
        else
            fsc_buf_putc(&safe, b.data[i]);
    bool ok = !b.oom && !safe.oom && fsc_tpl_set_trusted(v, "data_json", safe.data ? safe.data : "[]");
    fsc_buf_free(&b);
    fsc_buf_free(&safe);
    return ok;
}

static fsc_tpl_vars *page_vars(report *r, const char *format)
{
    bool html = !strcmp(format, "html");
    fsc_tpl_vars *v = fsc_tpl_vars_new();
    bool ok = v && fsc_tpl_set(v, "title", "fio results") &&
              fsc_tpl_set(v, "generated_by", "fioscope " FSC_VERSION) &&
              set_num(v, "n_runs", r->set->n_runs) && set_num(v, "n_jobs", count_jobs(r->set)) &&
              set_num(v, "n_charts", r->rc.n_charts) &&
              fsc_tpl_set(v, "has_workbook", r->no_workbook ? "" : "yes") &&
              fsc_tpl_set(v, "workbook_missing", r->no_workbook ? r->no_workbook : "") &&
              table_vars(r, v, format) && analysis_vars(r, v, html) &&
              chart_vars(r, v, html) && source_vars(r, v) && input_vars(r, v) && (!html || data_json(r, v));
    if (!ok) {
        fsc_tpl_vars_free(v);
        return NULL;
    }
    return v;
}

static fsc_status write_page(report *r, const char *tpl_name, const char *format, const char *file)
{
    size_t len;
    const char *tpl = fsc_template_get(tpl_name, &len);
    if (!tpl) {
        fsc_buf_printf(r->err, "template %s is not compiled in", tpl_name);
        return FSC_E_IO;
    }
    fsc_tpl_vars *v = page_vars(r, format);
    if (!v)
        return FSC_E_NOMEM;
    fsc_buf out = {0};
    fsc_status st = fsc_tpl_render(tpl_name, tpl, len, v, !strcmp(format, "html") ? FSC_TPL_HTML : FSC_TPL_MD,
                                   &out, r->err);
    if (st == FSC_OK)
        st = fsc_outdir_write(&r->out, false, file, out.data, out.len, r->err);
    fsc_buf_free(&out);
    fsc_tpl_vars_free(v);
    return st;
}

/* libxlsxwriter writes to a path: a private scratch folder, then the bytes go into
 * the report folder like every other file. */
static fsc_status write_xlsx(report *r)
{
    if (!fsc_xlsx_available(&r->no_workbook)) {
        /* the pages hold the same tables: they are written without the workbook (and
         * without naming it), and the command warns once */
        fsc_outdir_remove(&r->out, "report.xlsx"); /* an earlier report's would pass for this one's */
        return FSC_OK;
    }
    char *scratch = fsc_scratch_dir(r->err);
    if (!scratch)
        return FSC_E_IO;
    fsc_buf path = {0}, data = {0};
    fsc_buf_printf(&path, "%s/report.xlsx", scratch);
    fsc_xlsx_in in = {.summary = r->summary,
                      .fam = r->fam,
                      .n_fam = N_FAMILIES,
                      .pivots = (const fsc_pivot *const *)r->piv,
                      .pivot_titles = r->piv_title,
                      .n_pivots = r->n_piv,
                      .cmp = r->cmp,
                      .n_cmp = r->n_cmp,
                      .set = r->set};
    fsc_status st = path.oom ? FSC_E_NOMEM : fsc_xlsx_write(path.data, scratch, &in, r->err);
    if (st == FSC_OK && !fsc_read_whole(path.data, &data)) {
        fsc_buf_printf(r->err, "%s: cannot read back the workbook", path.data);
        st = FSC_E_IO;
    }
    if (st == FSC_OK)
        st = fsc_outdir_write(&r->out, false, "report.xlsx", data.data, data.len, r->err);
    fsc_buf_free(&path);
    fsc_buf_free(&data);
    fsc_scratch_remove(scratch);
    return st;
}

static fsc_status write_files(report *r)
{
    fsc_status st = FSC_OK; /* the marker was written when the folder was opened */
    for (size_t i = 0; st == FSC_OK && i < r->rc.n_charts; i++) {
        const fsc_report_chart *c = &r->rc.charts[i];
        char name[96];
        snprintf(name, sizeof name, "%s.png", c->file);
        st = fsc_outdir_write(&r->out, true, name, c->png.data, c->png.len, r->err);
        snprintf(name, sizeof name, "%s.svg", c->file);
        if (st == FSC_OK)
            st = fsc_outdir_write(&r->out, true, name, c->svg.data, c->svg.len, r->err);
    }
    if (st == FSC_OK)
        st = write_xlsx(r);
    if (st == FSC_OK)
        st = write_page(r, "report.md.tpl", "md", "report.md");
    if (st == FSC_OK)
        st = write_page(r, "report.html.tpl", "html", "index.html");
    return st;
}

static void report_free(report *r)
{
    fsc_table_free(r->summary);
    for (size_t i = 0; i < N_FAMILIES; i++)
        fsc_table_free(r->fam[i].table);
    for (size_t i = 0; i < r->n_piv; i++)
        fsc_pivot_free(r->piv[i]);
    free(r->cmp);
    for (size_t i = 0; i < r->n_cmp_strings; i++)
        free(r->cmp_strings[i]);
    free(r->cmp_strings);
    fsc_rcharts_free(&r->rc);
    fsc_analysis_free(r->a);
    fsc_outdir_close(&r->out);
}

fsc_status fsc_report_write(const fsc_runset *set, const fsc_report_opts *o, fsc_report_result *res,
                            fsc_buf *err)
{
    if (!set->n_runs) {
        fsc_buf_puts(err, "no fio run found in the inputs: nothing to report");
        return FSC_E_NO_RUNS;
    }
    report r = {.set = set, .o = o, .err = err, .out = {-1, -1, NULL}};
    fsc_status st = build_analysis(&r);
    if (st == FSC_OK)
        st = fsc_outdir_open(&r.out, o->dir, err);
    if (st == FSC_OK)
        st = build_tables(&r);
    if (st == FSC_OK)
        st = build_pivots(&r);
    if (st == FSC_OK)
        st = build_comparisons(&r);
    if (st == FSC_OK) {
        r.rc = (fsc_rcharts){.set = set,
                             .a = r.a,
                             .label_from = o->label_from,
                             .width = o->chart_width,
                             .height = o->chart_height,
                             .baseline = r.baseline,
                             .err = err};
        st = fsc_report_charts(&r.rc);
    }
    if (st == FSC_OK)
        st = write_files(&r);
    if (res) {
        res->n_charts = r.rc.n_charts;
        res->n_skipped = r.rc.n_skips;
        res->n_systems = r.n_sys;
        res->n_tables = 1 + r.n_piv;
        res->charts_missing = r.rc.unavailable;
        res->charts_plain = NULL;
        if (r.rc.n_charts)
            (void)fsc_chart_plain_text(&res->charts_plain);
        res->workbook_missing = r.no_workbook;
        for (size_t i = 0; i < N_FAMILIES; i++)
            res->n_tables += r.fam[i].table != NULL;
    }
    report_free(&r);
    return st;
}
