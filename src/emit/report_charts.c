/* SPDX-License-Identifier: MIT */
/*
 * The charts of a report, built on the analysis (systems and workloads) so that each
 * stays readable whatever the input: systems side by side per workload with their
 * change against the baseline, scaling curves with one series per system (never an
 * average of systems) and latency on a twin axis, an iodepth × numjobs heat map when
 * the runs sweep both, percentile curves per workload, per-job bars only where they
 * fit, and a sentence for every chart left out. Each system keeps one colour in
 * every chart.
 */
#include "report_int.h"
#include "fioscope/keyindex.h"

#include "fioscope/chart_time.h"

#include "fioscope/chart.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_W 1600
#define DEFAULT_H 900
#define MAX_BARS 36    /* a per-job chart with more bars than this is split or left out */
#define MAX_CURVES 10  /* per-job percentile curves and bucket series */
#define MAX_PCTL_PANELS 12 /* percentile panels: workloads */

/* ---- output ---- */

static bool add_skip(fsc_rcharts *rc, const char *title, const char *fmt, ...) FSC_PRINTF(3, 4);

static bool add_skip(fsc_rcharts *rc, const char *title, const char *fmt, ...)
{
    fsc_buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    char tmp[1024];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    fsc_buf_puts(&b, tmp);
    fsc_report_skip *s = b.oom ? NULL : FSC_PUSH(rc->skips, rc->n_skips, rc->cap_skips);
    if (!s) {
        fsc_buf_free(&b);
        return false;
    }
    s->title = fsc_strdup(title);
    s->reason = b.data;
    return s->title != NULL;
}

/* More systems than colours: colours are given per panel, in the order the systems
 * appear there, and each panel names its own (a curve and its twin keep one colour). */
static void colours_per_panel(const fsc_rcharts *rc, fsc_chart *c)
{
    if (!c || fsc_analysis_n_systems(rc->a) <= FSC_CHART_COLORS || !c->n_panels)
        return;
    c->panel_legends = true;
    for (size_t i = 0; i < c->n_panels; i++) {
        fsc_chart *p = c->panels[i];
        int seen[FSC_CHART_COLORS];
        size_t n_seen = 0;
        for (size_t k = 0; k < p->n_series; k++) {
            int old = p->series[k].color, now = -1;
            for (size_t e = 0; e < n_seen && now < 0; e++)
                if (seen[e] == old)
                    now = (int)e;
            if (now < 0) {
                now = (int)n_seen;
                if (n_seen < FSC_CHART_COLORS)
                    seen[n_seen++] = old;
            }
            p->series[k].color = now;
        }
        /* a dashed twin stays out of the panel's legend only when its solid curve is in it */
        for (size_t k = 0; k < p->n_series; k++) {
            fsc_series *s = &p->series[k];
            s->no_legend = false;
            for (size_t o = 0; s->dashed && !s->y2 && o < p->n_series; o++)
                s->no_legend |= !p->series[o].dashed && p->series[o].color == s->color;
        }
    }
}

static void chart_free(fsc_report_chart *cf)
{
    free(cf->file);
    free(cf->title);
    fsc_buf_free(&cf->png);
    fsc_buf_free(&cf->svg);
}

/* The chart just pushed cannot be drawn because its libraries cannot be loaded: a
 * skip in its place, so the page says where it would have been and why, and the
 * tables and pages are still written. The library's message is kept once, in
 * rc->unavailable, for the one warning of the command. */
static fsc_status drop_undrawable(fsc_rcharts *rc, const char *title)
{
    const char *why = NULL;
    (void)fsc_chart_available(&why);
    rc->unavailable = why ? why : "the chart libraries cannot be loaded";
    chart_free(&rc->charts[--rc->n_charts]);
    /* the library's whole message is said once, above the charts */
    return add_skip(rc, title, "Not drawn: the chart libraries (pango, cairo) cannot be loaded; see \"Charts not "
                               "drawn\" above.") ? FSC_OK : FSC_E_NOMEM;
}

/* Draw c (taking ownership) as charts/file.png and .svg; nothing when it has no data. */
static fsc_status add_chart(fsc_rcharts *rc, fsc_chart *c, const char *file)
{
    if (!c)
        return FSC_E_NOMEM;
    fsc_status st = FSC_OK;
    if (fsc_chart_has_data(c)) {
        int w = rc->width ? rc->width : DEFAULT_W, h = rc->height ? rc->height : DEFAULT_H;
        fsc_chart_fit_size(c, &w, &h);
        fsc_report_chart *cf = fsc_chart_provenance(c, rc->set) ? FSC_PUSH(rc->charts, rc->n_charts, rc->cap_charts)
                                                                 : NULL;
        if (cf) {
            memset(cf, 0, sizeof *cf);
            cf->file = fsc_strdup(file);
            cf->title = fsc_strdup(c->title);
            fsc_buf e = {0}; /* the report's error only when the report fails */
            st = cf->file && cf->title ? fsc_chart_render(c, FSC_CHART_PNG, w, h, &cf->png, &e) : FSC_E_NOMEM;
            if (st == FSC_OK)
                st = fsc_chart_render(c, FSC_CHART_SVG, w, h, &cf->svg, &e);
            if (st == FSC_E_UNSUPPORTED)
                st = drop_undrawable(rc, c->title);
            else if (st != FSC_OK && e.len)
                fsc_buf_puts(rc->err, e.data);
            fsc_buf_free(&e);
        } else
            st = FSC_E_NOMEM;
    }
    fsc_chart_free(c);
    return st;
}

void fsc_rcharts_free(fsc_rcharts *rc)
{
    for (size_t i = 0; i < rc->n_charts; i++)
        chart_free(&rc->charts[i]);
    free(rc->charts);
    for (size_t i = 0; i < rc->n_skips; i++) {
        free(rc->skips[i].title);
        free(rc->skips[i].reason);
    }
    free(rc->skips);
    rc->charts = NULL;
    rc->skips = NULL;
    rc->n_charts = rc->n_skips = 0;
}

/* ---- observations: one number per run, system, workload and direction ---- */

static size_t n_systems(const fsc_rcharts *rc)
{
    return fsc_analysis_n_systems(rc->a);
}

static const fsc_arow *obs_row(const fsc_rcharts *rc, const fsc_obs_set *os, const fsc_obs *o)
{
    return fsc_analysis_row(rc->a, os->row_index[o->first_row]);
}

/* Observations under a match rule; FSC_OK with none when the rule finds nothing. */
static fsc_status observe(const fsc_rcharts *rc, const char *match, fsc_obs_set *os)
{
    const char *used = NULL;
    fsc_buf err = {0};
    fsc_status st = fsc_analysis_observe(rc->a, match, os, &used, &err);
    fsc_buf_free(&err);
    return st == FSC_E_NOMEM ? st : FSC_OK;
}

static double obs_value(const fsc_rcharts *rc, const fsc_obs_set *os, const fsc_obs *o, const fsc_mspec *m)
{
    fsc_mval v = fsc_obs_eval(rc->a, os, o, m);
    return v.set ? v.v : NAN;
}

/* Directions drawn for a workload: read, write, trim; the total only when it is the
 * only one (unified_rw_reporting) — a mixed job's read and write say more. */
static unsigned dirs_to_draw(const fsc_obs_set *os, size_t key)
{
    unsigned all = 0;
    for (size_t i = 0; i < os->n_obs; i++)
        if (os->obs[i].key == key)
            all |= 1u << os->obs[i].dir;
    unsigned rw = all & ((1u << FSC_DIR_READ) | (1u << FSC_DIR_WRITE) | (1u << FSC_DIR_TRIM));
    return rw ? rw : all;
}

/* Does system sys have an observation of key in a direction that is drawn? */
static bool has_obs(const fsc_obs_set *os, size_t key, size_t sys)
{
    unsigned dirs = dirs_to_draw(os, key);
    for (size_t i = 0; i < os->n_obs; i++)
        if (os->obs[i].key == key && os->obs[i].system == sys && (dirs >> os->obs[i].dir & 1))
            return true;
    return false;
}

static size_t systems_of_key(const fsc_obs_set *os, size_t key, size_t n_sys)
{
    size_t count = 0;
    for (size_t s = 0; s < n_sys; s++)
        count += has_obs(os, key, s);
    return count;
}

/* Workload keys in order: the ones run on the most systems first (stable). */
static size_t *keys_by_systems(const fsc_obs_set *os, size_t n_sys, size_t *n)
{
    size_t *order = malloc((os->n_keys + 1) * sizeof *order);
    *n = 0;
    for (size_t want = n_sys; order && want > 0; want--)
        for (size_t k = 0; k < os->n_keys; k++)
            if (systems_of_key(os, k, n_sys) == want)
                order[(*n)++] = k;
    return order;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Set point idx of s to the median of v[0..n) and keep them as repeats when n > 1. */
static bool put_point(fsc_series *s, double x, const double *v, size_t n)
{
    size_t idx = s->n;
    double med = n ? fsc_median(v, n) : NAN;
    if (!fsc_series_add(s, x, med))
        return false;
    for (size_t i = 0; n > 1 && i < n; i++)
        if (!fsc_series_add_repeat(s, idx, v[i]))
            return false;
    return true;
}

static const char *dim_of(const fsc_arow *row, fsc_dim d)
{
    return row->dim[d] ? row->dim[d] : "";
}

/* ---- systems side by side, per workload ---- */

typedef struct metric_chart {
    const char *metric, *file, *title, *y_title;
} metric_chart;

static const metric_chart compare_specs[] = {
    {"iops", "compare-iops", "IOPS per workload", "IOPS"},
    {"bw", "compare-bandwidth", "Bandwidth per workload", "bandwidth"},
    {"clat", "compare-latency", "Mean completion latency per workload", "mean completion latency"},
    {"clat.p99", "compare-latency-p99", "p99 completion latency per workload", "p99 completion latency"},
};

/* Is a workload known well enough to compare (its rw or its block size)? */
static bool key_known(const fsc_rcharts *rc, const fsc_obs_set *os, size_t key)
{
    for (size_t i = 0; i < os->n_obs; i++)
        if (os->obs[i].key == key) {
            const fsc_arow *row = obs_row(rc, os, &os->obs[i]);
            return *dim_of(row, FSC_DIM_RW) || *dim_of(row, FSC_DIM_BS);
        }
    return false;
}

/* Median of the observations of key, system and direction into vals (count in *n). */
static double obs_median(const fsc_rcharts *rc, const fsc_obs_set *os, size_t key, size_t sys, int dir,
                         const fsc_mspec *m, double *vals, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < os->n_obs; i++) {
        const fsc_obs *o = &os->obs[i];
        double v = o->key == key && o->system == sys && o->dir == dir ? obs_value(rc, os, o, m) : NAN;
        if (isfinite(v))
            vals[(*n)++] = v;
    }
    return *n ? fsc_median(vals, *n) : NAN;
}


/* Does system sys have a value of m for key in a drawn direction? */
static bool has_value(const fsc_rcharts *rc, const fsc_obs_set *os, size_t key, size_t sys, const fsc_mspec *m,
                      double *vals)
{
    unsigned dirs = dirs_to_draw(os, key);
    size_t n = 0;
    for (int d = 0; d < FSC_DIR_COUNT && !n; d++)
        if (dirs >> d & 1)
            obs_median(rc, os, key, sys, d, m, vals, &n);
    return n > 0;
}

/* One panel with the systems as coloured series (one colour per system in every
 * chart), the directions as categories, labels against the baseline. */
static bool panel_by_colour(fsc_rcharts *rc, fsc_chart *p, const fsc_obs_set *os, size_t k, unsigned dirs,
                            const fsc_mspec *m, double *vals)
{
    bool ok = true;
    for (int d = 0; ok && d < FSC_DIR_COUNT; d++)
        if (dirs >> d & 1)
            ok = fsc_chart_add_category(p, fsc_rowdir_name(d));
    for (size_t s = 0; ok && s < n_systems(rc); s++) {
        if (!has_value(rc, os, k, s, m, vals))
            continue;
        fsc_series *ser = fsc_chart_add_series(p, fsc_analysis_system(rc->a, s));
        if (!ser)
            return false;
        ser->color = (int)s;
        if (s == rc->baseline)
            p->baseline = (int)(p->n_series - 1);
        size_t cat = 0;
        for (int d = 0; ok && d < FSC_DIR_COUNT; d++) {
            size_t n = 0;
            if (dirs >> d & 1) {
                obs_median(rc, os, k, s, d, m, vals, &n);
                ok = put_point(ser, (double)cat++, vals, n);
            }
        }
    }
    return ok;
}

/* One panel with the systems named under their bars (more systems than colours):
 * one series per direction. */
static bool panel_by_name(fsc_rcharts *rc, fsc_chart *p, const fsc_obs_set *os, size_t k, unsigned dirs,
                          const fsc_mspec *m, double *vals)
{
    bool ok = true;
    size_t n_sys = n_systems(rc);
    for (size_t s = 0; ok && s < n_sys; s++)
        if (has_value(rc, os, k, s, m, vals))
            ok = fsc_chart_add_category(p, fsc_analysis_system(rc->a, s));
    for (int d = 0; ok && d < FSC_DIR_COUNT; d++) {
        if (!(dirs >> d & 1))
            continue;
        fsc_series *ser = fsc_chart_add_series(p, fsc_rowdir_name(d));
        if (!ser)
            return false;
        ser->color = d;
        size_t cat = 0;
        for (size_t s = 0; ok && s < n_sys; s++) {
            size_t n = 0;
            if (has_value(rc, os, k, s, m, vals)) {
                obs_median(rc, os, k, s, d, m, vals, &n);
                ok = put_point(ser, (double)cat++, vals, n);
            }
        }
    }
    return ok;
}

static fsc_chart *compare_chart(fsc_rcharts *rc, const fsc_obs_set *os, const metric_chart *spec, size_t *shown)
{
    fsc_mspec m;
    size_t n_sys = n_systems(rc);
    bool named = n_sys > FSC_CHART_COLORS;
    const char *base = fsc_analysis_system(rc->a, rc->baseline);
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, spec->title);
    double *vals = malloc((os->n_obs + 1) * sizeof *vals);
    fsc_buf sub = {0};
    if (named)
        fsc_buf_printf(&sub, "%zu systems, more than there are colours: each bar is named; bars: median of the "
                             "repeats, dots: each repeat",
                       n_sys);
    else
        fsc_buf_printf(&sub, "systems side by side; bars: median of the repeats, dots: each repeat; labels: change "
                             "against %s (or the first system, where %s did not run the workload)",
                       base, base);
    bool ok = c && vals && !sub.oom && fsc_mspec_parse(spec->metric, strlen(spec->metric), &m) &&
              fsc_chart_set_text(&c->subtitle, sub.data) &&
              fsc_chart_axes(c, named ? "system" : NULL, FSC_UNIT_NONE, spec->y_title, m.m.unit);
    fsc_buf_free(&sub);
    *shown = 0;
    for (size_t k = 0; ok && k < os->n_keys; k++) {
        size_t with = 0;
        for (size_t sys = 0; sys < n_sys && with < 2; sys++)
            with += has_value(rc, os, k, sys, &m, vals);
        if (with < 2 || !key_known(rc, os, k))
            continue;
        fsc_chart *p = fsc_chart_add_panel(c, os->keys[k]);
        unsigned dirs = dirs_to_draw(os, k);
        ok = p && (named ? panel_by_name(rc, p, os, k, dirs, &m, vals) : panel_by_colour(rc, p, os, k, dirs, &m, vals));
        if (ok && !named && p->baseline < 0)
            p->baseline = 0; /* the baseline did not run this workload: the first system that did */
        (*shown)++;
    }
    free(vals);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

static fsc_status compare_charts(fsc_rcharts *rc)
{
    if (n_systems(rc) < 2)
        return FSC_OK;
    fsc_obs_set os = {0};
    fsc_status st = observe(rc, "workload", &os);
    if (st != FSC_OK || !os.n_obs) {
        fsc_obs_set_free(&os);
        return st;
    }
    for (size_t i = 0; st == FSC_OK && i < FSC_ARRAY_SIZE(compare_specs); i++) {
        size_t shown = 0;
        fsc_chart *c = compare_chart(rc, &os, &compare_specs[i], &shown);
        if (c && !shown) {
            fsc_chart_free(c);
            if (i == 0 && !add_skip(rc, "Systems side by side",
                                    "No workload ran on two or more of the %zu systems, so there is nothing to put "
                                    "side by side (the pivot tables show every system's workloads).",
                                    n_systems(rc)))
                st = FSC_E_NOMEM;
            break;
        }
        st = add_chart(rc, c, compare_specs[i].file);
    }
    fsc_obs_set_free(&os);
    return st;
}

/* ---- scaling: one series per system, panels per other workload fields ---- */

typedef struct scale_pt {
    char *panel;   /* the other fields and the direction: "randread 4k qd32 · read" */
    size_t system; /* the colour */
    size_t series; /* system and fio version: runs of other fio versions are other runs */
    double x, y, y2;
} scale_pt;

/* The series of a system and a fio version. */
typedef struct scale_series {
    size_t system;
    const char *version;
} scale_series;


/* The panel name of a row for a scaling over param: its other workload fields. */
static char *panel_name(const fsc_arow *row, const char *param)
{
    fsc_buf b = {0};
    fsc_buf_puts(&b, dim_of(row, FSC_DIM_RW));
    if (strcmp(param, "bs") && *dim_of(row, FSC_DIM_BS))
        fsc_buf_printf(&b, " %s", dim_of(row, FSC_DIM_BS));
    if (strcmp(param, "iodepth") && *dim_of(row, FSC_DIM_IODEPTH))
        fsc_buf_printf(&b, " qd%s", dim_of(row, FSC_DIM_IODEPTH));
    if (strcmp(param, "numjobs") && *dim_of(row, FSC_DIM_NUMJOBS))
        fsc_buf_printf(&b, " x%s", dim_of(row, FSC_DIM_NUMJOBS));
    if (*dim_of(row, FSC_DIM_IOENGINE)) /* a sweep keeps its engine */
        fsc_buf_printf(&b, " %s", dim_of(row, FSC_DIM_IOENGINE));
    fsc_buf_printf(&b, " · %s", dim_of(row, FSC_DIM_DIR));
    if (b.oom) {
        fsc_buf_free(&b);
        return NULL;
    }
    return b.data;
}

static double param_value(const fsc_arow *row, const char *param)
{
    const char *v = !strcmp(param, "bs")        ? dim_of(row, FSC_DIM_BS)
                    : !strcmp(param, "iodepth") ? dim_of(row, FSC_DIM_IODEPTH)
                                                : dim_of(row, FSC_DIM_NUMJOBS);
    if (!*v)
        return NAN;
    if (!strcmp(param, "bs"))
        return fsc_bs_bytes(v);
    char *end;
    double x = strtod(v, &end);
    return *end ? NAN : x;
}

static void free_points(scale_pt *pts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(pts[i].panel);
    free(pts);
}

/* The points sorted by (panel, series, x, place): each panel's series and each x of
 * it are a contiguous stretch, found in one pass. Going over every point for every
 * panel, series and x made a sweep of thousands of jobs cubic. Non-finite x sort last
 * and are never equal (as the comparisons of the scan were). */
static int cmp_scale_ord(const void *a, const void *b, const scale_pt *pts)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const scale_pt *x = &pts[i], *y = &pts[j];
    int c = strcmp(x->panel, y->panel);
    if (c)
        return c;
    if (x->series != y->series)
        return (x->series > y->series) - (x->series < y->series);
    bool fx = !isnan(x->x), fy = !isnan(y->x);
    if (fx != fy)
        return fx ? -1 : 1;
    if (fx && x->x != y->x)
        return (x->x > y->x) - (x->x < y->x);
    return (i > j) - (i < j);
}

static const scale_pt *sort_pts; /* qsort has no context; the report is one thread */

static int cmp_scale_ord_q(const void *a, const void *b)
{
    return cmp_scale_ord(a, b, sort_pts);
}

/* Distinct x of the stretch ord[a..b) (one series in one panel). */
static size_t distinct_x(const scale_pt *pts, const size_t *ord, size_t a, size_t b)
{
    size_t count = 0;
    for (size_t i = a; i < b; i++)
        count += i == a || !(pts[ord[i]].x == pts[ord[i - 1]].x);
    return count;
}

/* One series in a panel (the stretch ord[a..b)): x ascending, medians and repeats. */
static bool scale_series_fill(fsc_series *s, const scale_pt *pts, const size_t *ord, size_t a, size_t b, bool y2,
                              double *vals)
{
    for (size_t i = a; i < b;) {
        double x = pts[ord[i]].x;
        if (!isfinite(x)) {
            i++;
            continue;
        }
        size_t k = 0;
        for (; i < b && pts[ord[i]].x == x; i++) {
            double v = y2 ? pts[ord[i]].y2 : pts[ord[i]].y;
            if (isfinite(v))
                vals[k++] = v;
        }
        if (k && !put_point(s, x, vals, k))
            return false;
    }
    return true;
}

typedef struct panel_span {
    size_t a, b, first; /* stretch of ord, and the panel's first place among the points */
} panel_span;

static int cmp_span_first(const void *a, const void *b)
{
    const panel_span *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

static fsc_chart *scaling_chart(fsc_rcharts *rc, const scale_pt *pts, size_t n, const scale_series *ser_of,
                                size_t n_series, const char *param, bool bw)
{
    fsc_buf title = {0};
    bool twin = !bw;
    fsc_buf_printf(&title, "%s over %s%s", bw ? "Bandwidth" : "IOPS", param, twin ? ", with mean latency" : "");
    fsc_chart *c = title.oom ? NULL : fsc_chart_new(FSC_CHART_LINE, title.data);
    fsc_buf_free(&title);
    double *vals = malloc((n + 1) * sizeof *vals);
    bool ok = c && vals &&
              fsc_chart_axes(c, param, bw ? FSC_UNIT_BYTES : FSC_UNIT_NONE, bw ? "bandwidth" : "IOPS",
                             bw ? FSC_UNIT_BYTES_PER_S : FSC_UNIT_IOPS) &&
              fsc_chart_set_text(&c->subtitle, twin ? "one line per system (solid: IOPS, left axis; dashed: mean "
                                                      "completion latency, right axis); dots: each repeat"
                                                    : "one line per system; dots: each repeat");
    if (ok && twin) {
        ok = fsc_chart_set_text(&c->y2_title, "mean latency");
        c->y2_unit = FSC_UNIT_NS;
    }
    size_t *ord = malloc((n + 1) * sizeof *ord);
    panel_span *spans = malloc((n + 1) * sizeof *spans);
    size_t n_spans = 0;
    ok = ok && ord && spans;
    for (size_t i = 0; ok && i < n; i++)
        ord[i] = i;
    if (ok) {
        sort_pts = pts;
        qsort(ord, n, sizeof *ord, cmp_scale_ord_q);
    }
    /* panels in the order they first appear */
    for (size_t i = 0; ok && i < n;) {
        panel_span sp = {i, i, ord[i]};
        for (; sp.b < n && !strcmp(pts[ord[sp.b]].panel, pts[ord[i]].panel); sp.b++)
            sp.first = ord[sp.b] < sp.first ? ord[sp.b] : sp.first;
        spans[n_spans++] = sp;
        i = sp.b;
    }
    if (ok)
        qsort(spans, n_spans, sizeof *spans, cmp_span_first);
    for (size_t g = 0; ok && g < n_spans; g++) {
        const char *panel = pts[spans[g].first].panel;
        fsc_chart *p = NULL;
        for (size_t a = spans[g].a, b; ok && a < spans[g].b; a = b) {
            size_t s = pts[ord[a]].series;
            for (b = a; b < spans[g].b && pts[ord[b]].series == s; b++)
                ;
            if (s >= n_series || distinct_x(pts, ord, a, b) < 2)
                continue;
            if (!p && !(p = fsc_chart_add_panel(c, panel))) {
                ok = false;
                break;
            }
            /* the fio version joins the name when the system ran several */
            bool versions = false;
            for (size_t o = 0; o < n_series && !versions; o++)
                versions = o != s && ser_of[o].system == ser_of[s].system;
            const char *sys = fsc_analysis_system(rc->a, ser_of[s].system);
            fsc_buf name = {0};
            fsc_buf_puts(&name, sys[0] ? sys : "all runs");
            if (versions)
                fsc_buf_printf(&name, " (%s)", ser_of[s].version[0] ? ser_of[s].version : "fio ?");
            fsc_series *ser = name.oom ? NULL : fsc_chart_add_series(p, name.data);
            ok = ser && scale_series_fill(ser, pts, ord, a, b, false, vals);
            if (ok)
                ser->color = (int)ser_of[s].system;
            if (ok && twin) {
                fsc_buf_puts(&name, " latency");
                ser = name.oom ? NULL : fsc_chart_add_series(p, name.data);
                ok = ser && scale_series_fill(ser, pts, ord, a, b, true, vals);
                if (ok) {
                    ser->color = (int)ser_of[s].system;
                    ser->y2 = true;
                    ser->dashed = true;
                }
            }
            fsc_buf_free(&name);
        }
    }
    free(ord);
    free(spans);
    free(vals);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

/* The iodepth × numjobs cells of one system, rw, bs and direction. */
static fsc_chart *sweep_heatmap(fsc_rcharts *rc, const fsc_obs_set *os, const fsc_mspec *iops);

static fsc_status scaling_charts(fsc_rcharts *rc)
{
    static const char *const params[] = {"iodepth", "numjobs", "bs"};
    fsc_obs_set os = {0};
    fsc_status st = observe(rc, "rw,bs,iodepth,numjobs", &os);
    if (st != FSC_OK || !os.n_obs) {
        fsc_obs_set_free(&os);
        return st;
    }
    fsc_mspec iops, bw, lat;
    fsc_mspec_parse("iops", 4, &iops);
    fsc_mspec_parse("bw", 2, &bw);
    fsc_mspec_parse("clat", 4, &lat);
    unsigned tot = 1u << FSC_DIR_MIXED;
    for (size_t p = 0; st == FSC_OK && p < FSC_ARRAY_SIZE(params); p++) {
        bool is_bs = !strcmp(params[p], "bs");
        scale_pt *pts = NULL;
        scale_series *ser_of = NULL;
        size_t n = 0, cap = 0, n_ser = 0, cap_ser = 0;
        for (size_t i = 0; st == FSC_OK && i < os.n_obs; i++) {
            const fsc_obs *o = &os.obs[i];
            const fsc_arow *row = obs_row(rc, &os, o);
            double x = param_value(row, params[p]);
            if (!isfinite(x) || x <= 0 || (o->dir == FSC_DIR_MIXED && dirs_to_draw(&os, o->key) != tot))
                continue;
            scale_pt *pt = FSC_PUSH(pts, n, cap);
            if (!pt || !(pt->panel = panel_name(row, params[p]))) {
                if (pt)
                    n--;
                st = FSC_E_NOMEM;
                break;
            }
            const char *version = dim_of(row, FSC_DIM_FIO_VERSION);
            size_t id = 0;
            while (id < n_ser && (ser_of[id].system != o->system || strcmp(ser_of[id].version, version)))
                id++;
            scale_series *ns = id == n_ser ? FSC_PUSH(ser_of, n_ser, cap_ser) : NULL;
            if (ns)
                *ns = (scale_series){o->system, version};
            else if (id == n_ser) {
                st = FSC_E_NOMEM;
                break;
            }
            pt->system = o->system;
            pt->series = id;
            pt->x = x;
            pt->y = obs_value(rc, &os, o, is_bs ? &bw : &iops);
            pt->y2 = obs_value(rc, &os, o, &lat);
        }
        char file[32];
        snprintf(file, sizeof file, "scaling-%s", params[p]);
        if (st == FSC_OK) {
            fsc_chart *c = scaling_chart(rc, pts, n, ser_of, n_ser, params[p], is_bs);
            colours_per_panel(rc, c);
            st = add_chart(rc, c, file);
        }
        free_points(pts, n);
        free(ser_of);
    }
    if (st == FSC_OK)
        st = add_chart(rc, sweep_heatmap(rc, &os, &iops), "heatmap-iodepth-numjobs");
    fsc_obs_set_free(&os);
    return st;
}

/* ---- iodepth × numjobs heat map ---- */

/* Are observations e and i (rows r, r0) cells of one sweep: same system, direction,
 * rw, bs, engine and fio version? */
static bool same_sweep(const fsc_obs_set *os, size_t e, size_t i, const fsc_arow *r, const fsc_arow *r0)
{
    static const fsc_dim dims[] = {FSC_DIM_RW, FSC_DIM_BS, FSC_DIM_IOENGINE, FSC_DIM_FIO_VERSION};
    if (os->obs[e].system != os->obs[i].system || os->obs[e].dir != os->obs[i].dir)
        return false;
    for (size_t d = 0; d < FSC_ARRAY_SIZE(dims); d++)
        if (strcmp(dim_of(r, dims[d]), dim_of(r0, dims[d])))
            return false;
    return true;
}

static fsc_chart *sweep_heatmap(fsc_rcharts *rc, const fsc_obs_set *os, const fsc_mspec *iops)
{
    fsc_chart *c = fsc_chart_new(FSC_CHART_HEATMAP, "IOPS by iodepth and numjobs");
    bool ok = c && fsc_chart_axes(c, "numjobs", FSC_UNIT_NONE, "IOPS", FSC_UNIT_IOPS) &&
              fsc_chart_set_text(&c->row_title, "iodepth") &&
              fsc_chart_set_text(&c->subtitle, "median IOPS of the repeats; one panel per system, rw, bs and "
                                               "direction that ran two or more iodepths and numjobs");
    double *vals = malloc((os->n_obs + 1) * sizeof *vals);
    char *seen = calloc(os->n_obs + 1, 1);
    ok = ok && vals && seen;
    for (size_t i = 0; ok && i < os->n_obs; i++) {
        if (seen[i])
            continue;
        const fsc_arow *r0 = obs_row(rc, os, &os->obs[i]);
        /* the group of i: same system, rw, bs, dir */
        double qd[64], nj[64];
        size_t n_qd = 0, n_nj = 0, cells = 0;
        for (size_t e = i; e < os->n_obs; e++) {
            const fsc_arow *r = obs_row(rc, os, &os->obs[e]);
            if (!same_sweep(os, e, i, r, r0))
                continue;
            seen[e] = 1;
            double q = param_value(r, "iodepth"), j = param_value(r, "numjobs");
            if (!isfinite(q) || !isfinite(j))
                continue;
            bool have_q = false, have_j = false;
            for (size_t k = 0; k < n_qd; k++)
                have_q |= qd[k] == q;
            for (size_t k = 0; k < n_nj; k++)
                have_j |= nj[k] == j;
            if (!have_q && n_qd < 64)
                qd[n_qd++] = q;
            if (!have_j && n_nj < 64)
                nj[n_nj++] = j;
            cells++;
        }
        if (n_qd < 2 || n_nj < 2 || cells < 4)
            continue;
        qsort(qd, n_qd, sizeof *qd, cmp_double);
        qsort(nj, n_nj, sizeof *nj, cmp_double);
        fsc_buf name = {0};
        const char *sys = fsc_analysis_system(rc->a, os->obs[i].system);
        fsc_buf_printf(&name, "%s%s%s %s · %s", sys, sys[0] ? " · " : "", dim_of(r0, FSC_DIM_RW),
                       dim_of(r0, FSC_DIM_BS), fsc_rowdir_name(os->obs[i].dir));
        fsc_chart *p = name.oom ? NULL : fsc_chart_add_panel(c, name.data);
        fsc_buf_free(&name);
        ok = p != NULL;
        char lab[32];
        for (size_t k = 0; ok && k < n_nj; k++) {
            snprintf(lab, sizeof lab, "%g", nj[k]);
            ok = fsc_chart_add_category(p, lab);
        }
        for (size_t q = 0; ok && q < n_qd; q++) {
            snprintf(lab, sizeof lab, "%g", qd[q]);
            fsc_series *s = fsc_chart_add_series(p, lab);
            ok = s != NULL;
            for (size_t k = 0; ok && k < n_nj; k++) {
                size_t n = 0;
                for (size_t e = i; e < os->n_obs; e++) {
                    const fsc_arow *r = obs_row(rc, os, &os->obs[e]);
                    if (same_sweep(os, e, i, r, r0) && param_value(r, "iodepth") == qd[q] &&
                        param_value(r, "numjobs") == nj[k]) {
                        double v = obs_value(rc, os, &os->obs[e], iops);
                        if (isfinite(v))
                            vals[n++] = v;
                    }
                }
                ok = fsc_series_add(s, (double)k, n ? fsc_median(vals, n) : NAN);
            }
        }
    }
    free(vals);
    free(seen);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

/* ---- percentile curves per workload, one per system ---- */

/* The completion latency percentiles of a direction of an observation's first job
 * (percentiles of several jobs cannot be combined). */
static const fsc_lat *obs_pctl(const fsc_rcharts *rc, const fsc_obs_set *os, const fsc_obs *o)
{
    const fsc_arow *row = obs_row(rc, os, o);
    int d = o->dir;
    const fsc_lat *lat = &row->j->dir[d].lat[FSC_LAT_CLAT];
    return lat->n_percentile ? lat : NULL;
}

static fsc_chart *pctl_by_workload(fsc_rcharts *rc, const fsc_obs_set *os, size_t *curves)
{
    fsc_chart *c = fsc_chart_new(FSC_CHART_PCTL, "Completion latency percentiles per workload");
    size_t n_sys = n_systems(rc);
    bool ok = c && fsc_chart_axes(c, "percentile (%)", FSC_UNIT_NONE, "latency", FSC_UNIT_NS) &&
              fsc_chart_set_text(&c->subtitle, n_sys > 1 ? "one curve per system (dashed: write), the median of "
                                                           "its repeats at each percentile"
                                                         : "one curve per direction (dashed: write), median of the "
                                                           "repeats at each percentile");
    double *vals = malloc((os->n_obs + 1) * sizeof *vals);
    size_t n_keys = 0, with_pctl = 0, *order = keys_by_systems(os, n_sys, &n_keys);
    ok = ok && vals && order;
    *curves = 0;
    for (size_t ki = 0; ok && ki < n_keys; ki++) {
        size_t k = order[ki];
        fsc_chart *p = NULL;
        unsigned dirs = dirs_to_draw(os, k);
        bool any = false;
        for (size_t i = 0; i < os->n_obs && !any; i++)
            any = os->obs[i].key == k && (dirs >> os->obs[i].dir & 1) && obs_pctl(rc, os, &os->obs[i]);
        if (!any)
            continue;
        if (++with_pctl > MAX_PCTL_PANELS)
            continue;
        for (size_t s = 0; ok && s < n_sys; s++)
            for (int d = 0; ok && d < FSC_DIR_COUNT; d++) {
                if (!(dirs >> d & 1))
                    continue;
                const fsc_lat *first = NULL;
                for (size_t i = 0; i < os->n_obs && !first; i++)
                    if (os->obs[i].key == k && os->obs[i].system == s && os->obs[i].dir == d)
                        first = obs_pctl(rc, os, &os->obs[i]);
                if (!first)
                    continue;
                if (!p && !(p = fsc_chart_add_panel(c, os->keys[k]))) {
                    ok = false;
                    break;
                }
                fsc_buf name = {0};
                const char *sys = fsc_analysis_system(rc->a, s);
                if (n_sys > 1)
                    fsc_buf_printf(&name, "%s%s", sys, d == FSC_DIR_WRITE ? " (write)" : d == FSC_DIR_TRIM ? " (trim)" : "");
                else
                    fsc_buf_puts(&name, fsc_rowdir_name(d));
                fsc_series *ser = name.oom ? NULL : fsc_chart_add_series(p, name.data);
                fsc_buf_free(&name);
                ok = ser != NULL;
                if (!ok)
                    break;
                ser->color = n_sys > 1 ? (int)s : 0;
                ser->dashed = d == FSC_DIR_WRITE;
                (*curves)++;
                for (size_t q = 0; ok && q < first->n_percentile; q++) {
                    double pct = first->percentile[q].pct;
                    if (pct >= 100)
                        continue;
                    size_t n = 0;
                    for (size_t i = 0; i < os->n_obs; i++) {
                        const fsc_obs *o = &os->obs[i];
                        const fsc_lat *l = o->key == k && o->system == s && o->dir == d ? obs_pctl(rc, os, o) : NULL;
                        for (size_t e = 0; l && e < l->n_percentile; e++)
                            if (l->percentile[e].pct == pct)
                                vals[n++] = l->percentile[e].ns;
                    }
                    /* the median only: dots at every percentile would hide the curves */
                    ok = fsc_series_add(ser, pct, n ? fsc_median(vals, n) : NAN);
                }
            }
    }
    if (ok && with_pctl > MAX_PCTL_PANELS) {
        fsc_buf note = {0};
        fsc_buf_printf(&note, "%d of %zu workloads, those run on the most systems first; the others are in the "
                              "latency tables.",
                       MAX_PCTL_PANELS, with_pctl);
        ok = !note.oom && fsc_chart_set_text(&c->note, note.data);
        fsc_buf_free(&note);
    }
    free(vals);
    free(order);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    c->y_log = true;
    for (size_t i = 0; i < c->n_panels; i++)
        c->panels[i]->y_log = true;
    /* the legend names each system once: a dashed (write) curve stays out of it
     * when a solid curve of its system is in */
    for (size_t i = 0; n_sys > 1 && i < c->n_panels; i++)
        for (size_t k = 0; k < c->panels[i]->n_series; k++) {
            fsc_series *s = &c->panels[i]->series[k];
            for (size_t j = 0; s->dashed && !s->no_legend && j < c->n_panels; j++)
                for (size_t o = 0; o < c->panels[j]->n_series; o++)
                    if (!c->panels[j]->series[o].dashed && c->panels[j]->series[o].color == s->color)
                        s->no_legend = true;
        }
    return c;
}

static size_t count_curves(const fsc_runset *set)
{
    size_t n = 0;
    for (size_t r = 0; r < set->n_runs; r++)
        for (size_t j = 0; j < set->runs[r]->n_jobs; j++)
            for (int d = 0; d < FSC_DIR_COUNT; d++)
                n += set->runs[r]->jobs[j].dir[d].lat[FSC_LAT_CLAT].n_percentile > 0;
    return n;
}

static fsc_status percentile_charts(fsc_rcharts *rc)
{
    size_t curves = count_curves(rc->set);
    if (!curves)
        return FSC_OK;
    if (n_systems(rc) < 2 && curves <= MAX_CURVES)
        return add_chart(rc, fsc_chart_percentiles(rc->set, FSC_LAT_CLAT, rc->label_from), "clat-percentiles");
    fsc_obs_set os = {0};
    fsc_status st = observe(rc, "workload", &os);
    if (st != FSC_OK || !os.n_obs) {
        fsc_obs_set_free(&os);
        return st;
    }
    size_t drawn = 0;
    fsc_chart *c = pctl_by_workload(rc, &os, &drawn);
    colours_per_panel(rc, c);
    st = add_chart(rc, c, "clat-percentiles");
    fsc_obs_set_free(&os);
    return st;
}

/* ---- latency buckets ---- */

static size_t jobs_with_buckets(const fsc_runset *set)
{
    size_t n = 0;
    for (size_t r = 0; r < set->n_runs; r++)
        for (size_t j = 0; j < set->runs[r]->n_jobs; j++) {
            const fsc_job *job = &set->runs[r]->jobs[j];
            n += job->latency[0].n || job->latency[1].n || job->latency[2].n;
        }
    return n;
}


/* One panel per workload, one series per system: the buckets of its first job. */
static fsc_chart *buckets_by_workload(fsc_rcharts *rc, const fsc_obs_set *os)
{
    size_t n_sys = n_systems(rc), n_keys = 0, drawn = 0, with = 0;
    /* a heat map: systems × buckets stays readable where grouped bars would be 100+ */
    fsc_chart *c = fsc_chart_new(FSC_CHART_HEATMAP, "Latency distribution per workload");
    size_t *order = keys_by_systems(os, n_sys, &n_keys);
    const fsc_job **jobs = malloc((n_sys + 1) * sizeof *jobs);
    const char **names = malloc((n_sys + 1) * sizeof *names);
    int *colors = malloc((n_sys + 1) * sizeof *colors);
    bool ok = c && order && jobs && names && colors &&
              fsc_chart_axes(c, "latency bucket (upper bound)", FSC_UNIT_NONE, "share of I/Os", FSC_UNIT_PCT) &&
              fsc_chart_set_text(&c->row_title, "system") &&
              fsc_chart_set_text(&c->subtitle, n_sys > 1 ? "share of I/Os per latency bucket (fio's latency_ns/us/ms) "
                                                           "of each system's first job of the workload"
                                                         : "share of I/Os per latency bucket (fio's latency_ns/us/ms) "
                                                           "of the first job of each workload");
    for (size_t ki = 0; ok && ki < n_keys; ki++) {
        size_t k = order[ki], n = 0;
        for (size_t sys = 0; sys < n_sys; sys++)
            for (size_t i = 0; i < os->n_obs; i++)
                if (os->obs[i].key == k && os->obs[i].system == sys) {
                    const fsc_job *j = obs_row(rc, os, &os->obs[i])->j;
                    if (j->latency[0].n || j->latency[1].n || j->latency[2].n) {
                        jobs[n] = j;
                        names[n] = fsc_analysis_system(rc->a, sys);
                        if (!names[n][0])
                            names[n] = "all runs";
                        colors[n++] = (int)sys;
                    }
                    break;
                }
        if (!n || ++with > MAX_PCTL_PANELS)
            continue;
        fsc_chart *p = fsc_chart_add_panel(c, os->keys[k]);
        ok = p && fsc_chart_add_buckets(p, jobs, names, colors, n);
        drawn++;
    }
    if (ok && with > MAX_PCTL_PANELS) {
        fsc_buf note = {0};
        fsc_buf_printf(&note, "%d of %zu workloads, those run on the most systems first.", MAX_PCTL_PANELS, with);
        ok = !note.oom && fsc_chart_set_text(&c->note, note.data);
        fsc_buf_free(&note);
    }
    free(order);
    free(jobs);
    free(names);
    free(colors);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

static fsc_status bucket_chart(fsc_rcharts *rc)
{
    size_t n = jobs_with_buckets(rc->set);
    if (!n)
        return FSC_OK;
    if (n <= MAX_CURVES && n_systems(rc) < 2)
        return add_chart(rc, fsc_chart_buckets(rc->set, rc->label_from), "latency-buckets");
    fsc_obs_set os = {0};
    fsc_status st = observe(rc, "workload", &os);
    if (st != FSC_OK || !os.n_obs) {
        fsc_obs_set_free(&os);
        return st;
    }
    st = add_chart(rc, buckets_by_workload(rc, &os), "latency-buckets");
    fsc_obs_set_free(&os);
    return st;
}

/* ---- per-job bars ---- */

static const struct {
    const char *file, *title, *y_title, *metrics;
} bar_specs[] = {
    {"iops", "IOPS per job", "IOPS", "read.iops,write.iops,trim.iops,mixed.iops"},
    {"bandwidth", "Bandwidth per job", "bandwidth", "read.bw_bytes,write.bw_bytes,trim.bw_bytes,mixed.bw_bytes"},
    {"latency", "Completion latency per job: mean and p99", "completion latency",
     "read.clat_ns.mean,read.clat_ns.p99,write.clat_ns.mean,write.clat_ns.p99,mixed.clat_ns.mean,"
     "mixed.clat_ns.p99"},
};

static size_t count_bars(const fsc_table *t, const size_t *rows, size_t n_rows)
{
    size_t bars = 0;
    for (size_t i = 0; i < n_rows; i++)
        for (size_t c = 0; c < t->n_cols; c++)
            bars += t->rows[rows[i]].cells[c].kind == FSC_CELL_NUM;
    return bars;
}

static const char *row_system(const fsc_rcharts *rc, const fsc_row *row)
{
    size_t first, n;
    if (row->job_index == SIZE_MAX || !fsc_analysis_job_rows(rc->a, 0, row->run_index, row->job_index, &first, &n))
        return NULL;
    return fsc_analysis_row(rc->a, first)->dim[FSC_DIM_SYSTEM];
}

/* Bars of the table rows[0..n) into chart c (categories = row labels). */
static bool bars_of_rows(fsc_chart *c, const fsc_table *t, const size_t *rows, size_t n, int color_base)
{
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++)
        ok = fsc_chart_add_category(c, t->rows[rows[i]].label);
    for (size_t col = 0; ok && col < t->n_cols; col++) {
        if (t->cols[col].text)
            continue;
        bool any = false;
        for (size_t i = 0; i < n && !any; i++)
            any = t->rows[rows[i]].cells[col].kind == FSC_CELL_NUM;
        if (!any)
            continue;
        fsc_buf name = {0};
        const char *mn = t->cols[col].name;
        size_t ml = strlen(mn);
        fsc_buf_puts(&name, t->cols[col].title);
        if (ml > 5 && !strcmp(mn + ml - 5, ".mean") && !strstr(t->cols[col].title, "mean"))
            fsc_buf_puts(&name, " mean");
        fsc_series *s = name.oom ? NULL : fsc_chart_add_series(c, name.data);
        fsc_buf_free(&name);
        ok = s != NULL;
        if (ok)
            s->color = color_base + (int)col;
        for (size_t i = 0; ok && i < n; i++) {
            const fsc_cell *cell = &t->rows[rows[i]].cells[col];
            ok = fsc_series_add(s, (double)i, cell->kind == FSC_CELL_NUM ? cell->num : NAN);
        }
    }
    return ok;
}

static fsc_status per_job_chart(fsc_rcharts *rc, size_t spec)
{
    fsc_table *t = NULL;
    fsc_status st = fsc_report_trimmed(rc->set, rc->a, bar_specs[spec].metrics, rc->label_from, &t, rc->err);
    if (st != FSC_OK || !t)
        return st;
    size_t *rows = malloc((t->n_rows + 1) * sizeof *rows);
    if (!rows) {
        fsc_table_free(t);
        return FSC_E_NOMEM;
    }
    for (size_t i = 0; i < t->n_rows; i++)
        rows[i] = i;
    size_t bars = count_bars(t, rows, t->n_rows), n_sys = n_systems(rc);
    fsc_chart *c = fsc_chart_new(FSC_CHART_BAR, bar_specs[spec].title);
    bool ok = c && fsc_chart_axes(c, "job", FSC_UNIT_NONE, bar_specs[spec].y_title, FSC_UNIT_NONE);
    for (size_t col = 0; ok && col < t->n_cols; col++)
        if (!t->cols[col].text) {
            c->y_unit = t->cols[col].unit;
            break;
        }
    if (ok && bars <= MAX_BARS)
        ok = bars_of_rows(c, t, rows, t->n_rows, 0);
    else if (ok && n_sys >= 2 && n_sys <= 36) {
        /* one panel per system, if each holds a readable number of bars */
        size_t worst = 0;
        for (size_t s = 0; ok && s < n_sys; s++) {
            size_t n = 0;
            for (size_t i = 0; i < t->n_rows; i++) {
                const char *sys = row_system(rc, &t->rows[i]);
                if (sys && !strcmp(sys, fsc_analysis_system(rc->a, s)))
                    rows[n++] = i;
            }
            size_t b = count_bars(t, rows, n);
            worst = b > worst ? b : worst;
            fsc_chart *p = n && b <= MAX_BARS ? fsc_chart_add_panel(c, fsc_analysis_system(rc->a, s)) : NULL;
            if (p)
                ok = bars_of_rows(p, t, rows, n, 0);
            else if (n && b <= MAX_BARS)
                ok = false;
        }
        if (ok && worst > MAX_BARS) {
            fsc_chart_free(c);
            c = NULL;
            ok = add_skip(rc, bar_specs[spec].title,
                          "Not drawn: %zu bars for %zu jobs, and one system alone has %zu, too many to read; the %s "
                          "table lists every job and the charts above compare the systems per workload.",
                          bars, t->n_rows, worst, bar_specs[spec].y_title);
        } else if (ok) {
            ok = fsc_chart_set_text(&c->title, bar_specs[spec].title) &&
                 fsc_chart_set_text(&c->subtitle, "one panel per system");
        }
    } else if (ok) {
        fsc_chart_free(c);
        c = NULL;
        ok = add_skip(rc, bar_specs[spec].title,
                      "Not drawn: %zu jobs would make %zu bars, too many to read in one chart; the %s table lists "
                      "every job, and 'fioscope chart --y %s --x workload --series system' draws them per workload.",
                      t->n_rows, bars, bar_specs[spec].y_title, spec == 0 ? "iops" : spec == 1 ? "bw" : "clat");
    }
    free(rows);
    fsc_table_free(t);
    if (!ok) {
        fsc_chart_free(c);
        return FSC_E_NOMEM;
    }
    return c ? add_chart(rc, c, bar_specs[spec].file) : FSC_OK;
}

/* ---- disk utilisation ---- */

static size_t disk_bars(const fsc_runset *set)
{
    size_t n = 0;
    for (size_t r = 0; r < set->n_runs; r++)
        n += set->runs[r]->n_disk_util;
    return n;
}

/* A run's system: the system of its first job's row. */
static const char *run_system(const fsc_rcharts *rc, size_t run)
{
    size_t first, n;
    for (size_t j = 0; j < rc->set->runs[run]->n_jobs; j++)
        if (fsc_analysis_job_rows(rc->a, 0, run, j, &first, &n))
            return fsc_analysis_row(rc->a, first)->dim[FSC_DIM_SYSTEM];
    return "";
}

static const char *dev_name_at(const void *items, size_t i)
{
    return ((const char *const *)items)[i];
}

/* Many devices: a heat map of utilisation, devices × runs, one panel per system. */
static fsc_chart *disk_heatmap(fsc_rcharts *rc)
{
    fsc_chart *c = fsc_chart_new(FSC_CHART_HEATMAP, "Disk utilisation");
    size_t n_sys = n_systems(rc) ? n_systems(rc) : 1;
    bool ok = c && fsc_chart_axes(c, "run", FSC_UNIT_NONE, "utilisation", FSC_UNIT_PCT) &&
              fsc_chart_set_text(&c->row_title, "device") &&
              fsc_chart_set_text(&c->subtitle, n_sys > 1 ? "% busy per device and run, one panel per system"
                                                         : "% busy per device and run");
    if (ok)
        c->y_linear = true;
    /* the systems with the most runs first, at most MAX_PCTL_PANELS panels */
    size_t *runs = calloc(n_sys, sizeof *runs), *order = malloc(n_sys * sizeof *order), n_order = 0, with = 0;
    ok = ok && runs && order;
    for (size_t r = 0; ok && r < rc->set->n_runs; r++)
        for (size_t s = 0; n_sys > 1 && rc->set->runs[r]->n_disk_util && s < n_sys; s++)
            if (!strcmp(run_system(rc, r), fsc_analysis_system(rc->a, s)))
                runs[s]++;
    for (size_t want = rc->set->n_runs; ok && want > 0; want--)
        for (size_t s = 0; s < n_sys; s++)
            if (runs[s] == want || (n_sys == 1 && want == 1))
                order[n_order++] = s;
    for (size_t s = 0; s < n_sys; s++)
        with += runs[s] > 0;
    for (size_t oi = 0; ok && oi < n_order && oi < MAX_PCTL_PANELS; oi++) {
        size_t s = order[oi];
        const char *sys = n_systems(rc) ? fsc_analysis_system(rc->a, s) : "";
        fsc_chart *p = n_sys > 1 ? NULL : c;
        /* devices in order of appearance in this system's runs, found by a key index
         * (a run of 16,000 devices was quadratic), and their utilisation per shown run */
        const char **devs = NULL;
        size_t n_dev = 0, cap_dev = 0;
        fsc_keyindex dev_ix = {0};
        double *util = NULL; /* [device][column] */
        size_t n_col = 0;
        for (int pass = 0; ok && pass < 2; pass++) {
            size_t col = 0;
            for (size_t r = 0; ok && r < rc->set->n_runs; r++) {
                const fsc_run *run = rc->set->runs[r];
                if (!run->n_disk_util || (n_sys > 1 && strcmp(run_system(rc, r), sys)))
                    continue;
                if (!pass && !p && !(p = fsc_chart_add_panel(c, sys)))
                    ok = false;
                if (ok && !pass && p->n_categories < 36)
                    ok = fsc_chart_add_category(p, run->label ? run->label : run->id);
                if (pass && col >= n_col)
                    break;
                for (size_t d = 0; ok && d < run->n_disk_util; d++) {
                    const char *name = run->disk_util[d].name ? run->disk_util[d].name : "?";
                    size_t e = fsc_keyindex_find(&dev_ix, devs, n_dev, dev_name_at, name);
                    if (pass) { /* the last entry of a device in a run counts */
                        if (run->disk_util[d].util.set)
                            util[e * n_col + col] = run->disk_util[d].util.v;
                        continue;
                    }
                    if (e < n_dev)
                        continue;
                    const char **slot = FSC_PUSH(devs, n_dev, cap_dev);
                    ok = slot != NULL;
                    if (ok)
                        *slot = name;
                    if (ok && !fsc_keyindex_added(&dev_ix, devs, n_dev, dev_name_at)) {
                        n_dev--;
                        ok = false;
                    }
                }
                col++;
            }
            if (ok && !pass && p) {
                n_col = p->n_categories;
                util = malloc((n_dev && n_col ? n_dev * n_col : 1) * sizeof *util);
                ok = util != NULL;
                for (size_t i = 0; ok && i < n_dev * n_col; i++)
                    util[i] = NAN;
            }
        }
        for (size_t d = 0; ok && p && d < n_dev; d++) {
            fsc_series *ser = fsc_chart_add_series(p, devs[d]);
            ok = ser != NULL;
            for (size_t col = 0; ok && col < n_col; col++)
                ok = fsc_series_add(ser, (double)col, util[d * n_col + col]);
        }
        free(util);
        fsc_keyindex_free(&dev_ix);
        free(devs);
    }
    if (ok && with > MAX_PCTL_PANELS) {
        fsc_buf note = {0};
        fsc_buf_printf(&note, "%d of %zu systems, those with the most runs first.", MAX_PCTL_PANELS, with);
        ok = !note.oom && fsc_chart_set_text(&c->note, note.data);
        fsc_buf_free(&note);
    }
    free(runs);
    free(order);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

static fsc_status disk_chart(fsc_rcharts *rc)
{
    size_t n = disk_bars(rc->set);
    if (!n)
        return FSC_OK;
    if (n <= MAX_BARS)
        return add_chart(rc, fsc_chart_disk_util(rc->set), "disk-util");
    return add_chart(rc, disk_heatmap(rc), "disk-util");
}

/* The "Over time" charts of the runs with log files (fioscope/chart_time.h). */
static fsc_status time_charts(fsc_rcharts *rc)
{
    fsc_chart *charts[64];
    char *files[64];
    size_t n = fsc_chart_time_report(rc->set, rc->label_from, charts, files, 64);
    fsc_status st = FSC_OK;
    for (size_t i = 0; i < n; i++) {
        size_t before = rc->n_charts;
        if (st == FSC_OK)
            st = add_chart(rc, charts[i], files[i]);
        else
            fsc_chart_free(charts[i]);
        if (rc->n_charts > before)
            rc->charts[before].over_time = true;
        free(files[i]);
    }
    return st;
}

fsc_status fsc_report_charts(fsc_rcharts *rc)
{
    fsc_status st = compare_charts(rc);
    for (size_t i = 0; st == FSC_OK && i < FSC_ARRAY_SIZE(bar_specs); i++)
        st = per_job_chart(rc, i);
    if (st == FSC_OK)
        st = scaling_charts(rc);
    if (st == FSC_OK)
        st = percentile_charts(rc);
    if (st == FSC_OK)
        st = bucket_chart(rc);
    if (st == FSC_OK)
        st = disk_chart(rc);
    if (st == FSC_OK)
        st = time_charts(rc);
    return st;
}
