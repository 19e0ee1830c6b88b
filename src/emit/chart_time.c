/* SPDX-License-Identifier: MIT */
/*
 * Charts over time from fio's log files: a metric over time, latency percentiles over
 * time and a latency heat map, per job (small multiples beyond a few), and the set of
 * them a report shows per run.
 */
#include "fioscope/chart_time.h"

#include "fioscope/table.h"
#include "fioscope/timeseries.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Jobs drawn together in one plot; more become panels (at most MAX_PANELS). */
#define MAX_TOGETHER 4
#define MAX_PANELS 12
/* Columns of a heat map (the renderer draws about 30 categories at most). */
#define HEAT_COLUMNS 30

/* One job of one run whose series are drawn. */
typedef struct pair {
    const fsc_run *run;
    const char *job;
    char *name; /* legend or panel title (owned) */
    double origin;
} pair;

typedef struct pairs {
    pair *p;
    size_t n, cap;
    size_t more; /* pairs left out */
} pairs;

static void pairs_free(pairs *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        free(ps->p[i].name);
    free(ps->p);
}

static bool kind_wanted(fsc_logkind want, fsc_logkind k)
{
    if (want == FSC_LOG_KIND_COUNT) /* any histogram log */
        return fsc_logkind_is_hist(k);
    return k == want;
}

/* The series of a pair of the wanted kind (at most max). */
static size_t pair_series(const pair *pr, fsc_logkind want, const fsc_logseries **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < pr->run->n_series && n < max; i++) {
        const fsc_logseries *s = pr->run->series[i];
        if (kind_wanted(want, s->kind) && s->n && !strcmp(s->job ? s->job : "", pr->job))
            out[n++] = s;
    }
    return n;
}

/* Every (run, job) with series of the wanted kind, in order; names with the run's
 * label when several runs are drawn. */
static bool collect_pairs(const fsc_runset *set, const fsc_chart_time_opts *o, fsc_logkind want, pairs *ps)
{
    memset(ps, 0, sizeof *ps);
    size_t runs = 0;
    for (size_t r = 0; r < set->n_runs; r++)
        for (size_t i = 0; i < set->runs[r]->n_series; i++)
            if ((o->run == SIZE_MAX || o->run == r) && kind_wanted(want, set->runs[r]->series[i]->kind)) {
                runs++;
                break;
            }
    for (size_t r = 0; r < set->n_runs; r++) {
        const fsc_run *run = set->runs[r];
        if (o->run != SIZE_MAX && o->run != r)
            continue;
        double origin = fsc_ts_origin((const fsc_logseries *const *)run->series, run->n_series);
        for (size_t i = 0; i < run->n_series; i++) {
            const fsc_logseries *s = run->series[i];
            const char *job = s->job ? s->job : "";
            if (!kind_wanted(want, s->kind) || !s->n || (o->job && strcmp(job, o->job)))
                continue;
            bool seen = false;
            for (size_t k = 0; k < ps->n && !seen; k++)
                seen = ps->p[k].run == run && !strcmp(ps->p[k].job, job);
            if (seen)
                continue;
            if (ps->n >= MAX_PANELS) {
                ps->more++;
                continue;
            }
            pair *pr = FSC_PUSH(ps->p, ps->n, ps->cap);
            if (!pr)
                return false;
            fsc_buf name = {0};
            if (runs > 1 && run->label && strcmp(run->label, job))
                fsc_buf_printf(&name, "%s › %s", run->label, job);
            else
                fsc_buf_puts(&name, job);
            *pr = (pair){run, job, name.data, origin};
            if (name.oom || !name.data) {
                fsc_buf_free(&name);
                ps->n--;
                return false;
            }
        }
    }
    return true;
}

static fsc_unit unit_of(fsc_logkind k)
{
    return k == FSC_LOG_BW ? FSC_UNIT_BYTES_PER_S : k == FSC_LOG_IOPS ? FSC_UNIT_IOPS : FSC_UNIT_NS;
}

static const char *title_of(fsc_logkind k)
{
    switch (k) {
    case FSC_LOG_BW: return "bandwidth";
    case FSC_LOG_IOPS: return "IOPS";
    case FSC_LOG_LAT: return "latency";
    case FSC_LOG_CLAT: return "completion latency";
    case FSC_LOG_SLAT: return "submission latency";
    default: return "latency";
    }
}

/* The directions a set of series has rows of (bit per FSC_DIR_READ..TRIM). */
static unsigned dirs_of(const fsc_logseries *const *s, size_t n)
{
    int64_t *d = malloc(FSC_LOG_BLOCK * sizeof *d);
    unsigned mask = 0;
    for (size_t i = 0; d && i < n; i++)
        for (size_t first = 0; first < s[i]->n; first += FSC_LOG_BLOCK) {
            size_t got = fsc_logseries_read(s[i], first, FSC_LOG_BLOCK, FSC_COL_DIR, d);
            if (!got)
                mask |= 1;
            for (size_t k = 0; k < got; k++)
                if (d[k] >= 0 && d[k] <= FSC_DIR_TRIM)
                    mask |= 1u << d[k];
        }
    free(d);
    return mask ? mask : 1;
}

/* Points of a grid into a series: x at each interval's middle, in ms. */
static bool grid_points(fsc_series *s, const fsc_tsgrid *g)
{
    double scale = g->kind == FSC_LOG_BW ? 1024 : 1; /* the logs' KiB/s */
    for (size_t k = 0; k < g->n; k++)
        if (!fsc_series_add(s, g->t0_ms + ((double)k + 0.5) * g->step_ms, g->v[k] * scale))
            return false;
    return true;
}

/* The chart a pair is drawn into: the chart itself, or a panel of it. */
static fsc_chart *target(fsc_chart *c, const pairs *ps, size_t i)
{
    return ps->n > MAX_TOGETHER ? fsc_chart_add_panel(c, ps->p[i].name) : c;
}

static bool note_more(fsc_chart *c, const pairs *ps)
{
    if (!ps->more)
        return true;
    char note[96];
    snprintf(note, sizeof note, "and %zu more job%s not drawn", ps->more, ps->more == 1 ? "" : "s");
    return fsc_chart_set_text(&c->note, note);
}

/* The lines of one pair: per direction (a dashed line for writes), per clone or summed. */
static bool pair_lines(fsc_chart *t, const pair *pr, const fsc_chart_time_opts *o, bool together,
                       int color)
{
    /* every clone (numjobs over 64 lost the rest of the sum) */
    const fsc_logseries **ser = malloc((pr->run->n_series + 1) * sizeof *ser);
    if (!ser)
        return false;
    size_t n = pair_series(pr, o->kind, ser, pr->run->n_series);
    unsigned dirs = dirs_of(ser, n);
    bool several = (dirs & (dirs - 1)) != 0;
    double step = o->interval_ms;
    for (size_t i = 0; i < n && !step; i++)
        step = fsc_ts_period(ser[i]);
    bool ok = true;
    for (int d = FSC_DIR_READ; ok && d <= FSC_DIR_TRIM; d++) {
        if (!(dirs & (1u << d)))
            continue;
        fsc_ts_opts to = {.step_ms = step > 0 ? step : 1000, .dir = several ? d : -1,
                          .origin_ms = pr->origin};
        size_t lines = o->per_clone ? n : 1;
        for (size_t k = 0; ok && k < lines; k++) {
            fsc_tsgrid g;
            fsc_status st = o->per_clone ? fsc_ts_resample(ser[k], &to, &g)
                                         : fsc_ts_resample_all(ser, n, &to, &g);
            if (st == FSC_E_LIMIT)
                continue;
            if (st != FSC_OK) {
                free(ser);
                return false;
            }
            fsc_buf name = {0};
            fsc_buf_puts(&name, together ? pr->name : "");
            if (o->per_clone)
                fsc_buf_printf(&name, "%s#%d", name.len ? " " : "",
                               ser[k]->section ? ser[k]->section : ser[k]->clone);
            if (several)
                fsc_buf_printf(&name, "%s%s", name.len ? " " : "", fsc_ddir_name((fsc_ddir)d));
            if (!name.len)
                fsc_buf_puts(&name, fsc_logkind_name(o->kind));
            fsc_series *s = name.oom ? NULL : fsc_chart_add_series(t, name.data);
            fsc_buf_free(&name);
            ok = s && grid_points(s, &g);
            if (s) {
                s->color = together ? color + (int)k : (int)k;
                s->dashed = d == FSC_DIR_WRITE && several;
            }
            fsc_tsgrid_free(&g);
        }
        if (!several)
            break;
    }
    free(ser);
    return ok;
}

static fsc_chart *new_time_chart(fsc_chart_type type, const char *title, const char *y_title, fsc_unit y_unit)
{
    fsc_chart *c = fsc_chart_new(type, title);
    if (c && !fsc_chart_axes(c, "time", FSC_UNIT_MS, y_title, y_unit)) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

fsc_chart *fsc_chart_timeseries(const fsc_runset *set, const fsc_chart_time_opts *o)
{
    char title[96];
    snprintf(title, sizeof title, "%s over time", title_of(o->kind));
    title[0] = title[0] == 'l' || title[0] == 'c' || title[0] == 's' || title[0] == 'b'
                   ? (char)(title[0] - 'a' + 'A') : title[0];
    fsc_chart *c = new_time_chart(FSC_CHART_LINE, title, title_of(o->kind), unit_of(o->kind));
    pairs ps;
    bool ok = c && collect_pairs(set, o, o->kind, &ps);
    for (size_t i = 0; ok && i < ps.n; i++) {
        fsc_chart *t = target(c, &ps, i);
        ok = t && pair_lines(t, &ps.p[i], o, ps.n > 1 && ps.n <= MAX_TOGETHER, (int)i);
    }
    ok = ok && note_more(c, &ps);
    if (c)
        pairs_free(&ps);
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

/* The histogram logs of a pair, and the interval to read them at. */
static size_t pair_hists(const pair *pr, const fsc_chart_time_opts *o, const fsc_logseries **h,
                         size_t max, double *interval)
{
    fsc_logkind want = fsc_logkind_is_hist(o->kind) ? o->kind : FSC_LOG_KIND_COUNT;
    size_t n = pair_series(pr, want, h, max);
    /* one bin layout: the first log's */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (h[i]->n_bins == h[0]->n_bins && h[i]->usec == h[0]->usec && h[i]->coarseness == h[0]->coarseness)
            h[k++] = h[i];
    double period = 0;
    for (size_t i = 0; i < k && !period; i++)
        period = fsc_ts_period(h[i]);
    *interval = o->interval_ms > 0 ? o->interval_ms : period > 0 ? period : 1000;
    return k;
}

fsc_chart *fsc_chart_pctl_time(const fsc_runset *set, const fsc_chart_time_opts *o)
{
    static const double def_pcts[] = {90, 99};
    fsc_chart *c = new_time_chart(FSC_CHART_LINE, "Latency percentiles over time", "latency", FSC_UNIT_NS);
    pairs ps;
    fsc_logkind want = fsc_logkind_is_hist(o->kind) ? o->kind : FSC_LOG_KIND_COUNT;
    bool ok = c && collect_pairs(set, o, want, &ps);
    const double *req = o->pcts ? o->pcts : def_pcts;
    size_t n_req = o->pcts ? o->n_pcts : FSC_ARRAY_SIZE(def_pcts);
    for (size_t i = 0; ok && i < ps.n; i++) {
        const fsc_logseries **h = malloc((ps.p[i].run->n_series + 1) * sizeof *h);
        double interval = 0; /* read below even when h is NULL */
        size_t n = h ? pair_hists(&ps.p[i], o, h, ps.p[i].run->n_series, &interval) : 0;
        ok = h != NULL;
        fsc_hpctl_opts ho = {.interval_ms = interval, .pcts = req, .n_pcts = n_req};
        fsc_hpctl hp;
        bool have = n && fsc_hist_pctl(h, n, &ho, &hp) == FSC_OK;
        free(h);
        if (!have)
            continue;
        fsc_chart *t = target(c, &ps, i);
        bool together = ps.n > 1 && ps.n <= MAX_TOGETHER;
        double scale = hp.usec ? 1000 : 1;
        /* the median, the requested percentiles, then the largest latency seen */
        for (size_t k = 0; ok && t && k <= hp.n_pct; k++) {
            char name[160];
            if (k < hp.n_pct)
                snprintf(name, sizeof name, "%s%sp%g", together ? ps.p[i].name : "", together ? " " : "",
                         hp.pcts[k]);
            else
                snprintf(name, sizeof name, "%s%smax", together ? ps.p[i].name : "", together ? " " : "");
            fsc_series *s = fsc_chart_add_series(t, name);
            ok = s != NULL;
            for (size_t r = 0; ok && r < hp.n; r++) {
                const fsc_hpctl_row *row = &hp.rows[r];
                double v = k < hp.n_pct ? row->pct[k] : row->max;
                /* fiologparser_hist.py's rows stand at the end of their interval */
                ok = fsc_series_add(s, row->end_ms - ps.p[i].origin - interval / 2, v * scale);
            }
            if (s) {
                s->color = (int)k;
                s->dashed = together && i % 2;
            }
        }
        ok = ok && t;
        fsc_hpctl_free(&hp);
    }
    ok = ok && note_more(c, &ps);
    if (c) {
        if (ok && c->n_series + c->n_panels)
            ok = fsc_chart_set_text(&c->subtitle, "as fio's fiologparser_hist.py computes them from the "
                                                  "histogram logs");
        /* the median and the tail are decades apart: a log axis shows both */
        c->y_log = true;
        for (size_t i = 0; i < c->n_panels; i++)
            c->panels[i]->y_log = true;
        pairs_free(&ps);
    }
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

/* Latency bands of the heat map: 1-2-5 steps (1 µs, 2 µs, 5 µs, 10 µs ...), ns. */
static double band_bound(int k)
{
    static const double steps[] = {1, 2, 5};
    return steps[k % 3] * pow(10, k / 3);
}

static int band_of(double ns)
{
    int k = 0;
    while (k < 40 && ns >= band_bound(k + 1))
        k++;
    return k;
}

static bool band_name(int k, fsc_buf *out)
{
    fsc_buf_reset(out);
    fsc_format_human(out, band_bound(k), FSC_UNIT_NS);
    fsc_buf_puts(out, "–");
    fsc_format_human(out, band_bound(k + 1), FSC_UNIT_NS);
    return !out->oom;
}

/* One heat map (a pair's histogram logs): columns of time, rows of latency bands, the
 * share (%) of each column's I/Os in each band. */
static bool heat_pair(fsc_chart *t, const pair *pr, const fsc_chart_time_opts *o)
{
    const fsc_logseries **h = malloc((pr->run->n_series + 1) * sizeof *h);
    if (!h)
        return false;
    double interval;
    size_t n = pair_hists(pr, o, h, pr->run->n_series, &interval);
    if (!n) {
        free(h);
        return true;
    }
    uint32_t nb = h[0]->n_bins;
    int64_t t_max = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t v;
        if (fsc_logseries_read(h[i], h[i]->n - 1, 1, FSC_COL_T, &v) == 1 && v > t_max)
            t_max = v;
    }
    double span = (double)t_max - pr->origin - interval / 2; /* where the last row lands */
    if (span < 0)
        span = 0;
    double col = interval;
    while (span / col > HEAT_COLUMNS)
        col += interval; /* whole numbers of the log's own period */
    size_t n_cols = (size_t)(span / col) + 1;
    if (n_cols > HEAT_COLUMNS)
        n_cols = HEAT_COLUMNS;
    double *cells = calloc(n_cols * 41, sizeof *cells), *tot = calloc(n_cols, sizeof *tot);
    uint64_t *bins = malloc((size_t)nb * sizeof *bins);
    int *band = malloc((size_t)nb * sizeof *band);
    bool ok = cells && tot && bins && band;
    double scale = h[0]->usec ? 1000 : 1;
    for (uint32_t b = 0; ok && b < nb; b++)
        band[b] = band_of(fsc_hist_bin_value(b, h[0]->coarseness, 0.5) * scale);
    int lo = 40, hi = 0;
    for (size_t i = 0; ok && i < n; i++)
        for (size_t r = 0; r < h[i]->n; r++) {
            int64_t tt;
            fsc_logseries_read(h[i], r, 1, FSC_COL_T, &tt);
            /* a row covers the period before its time */
            double at = (double)tt - pr->origin - interval / 2;
            size_t cidx = at <= 0 ? 0 : (size_t)(at / col);
            if (cidx >= n_cols)
                cidx = n_cols - 1;
            fsc_logseries_hist_row(h[i], r, bins);
            for (uint32_t b = 0; b < nb; b++)
                if (bins[b]) {
                    cells[cidx * 41 + (size_t)band[b]] += (double)bins[b];
                    tot[cidx] += (double)bins[b];
                    lo = band[b] < lo ? band[b] : lo;
                    hi = band[b] > hi ? band[b] : hi;
                }
        }
    fsc_buf name = {0};
    for (size_t ci = 0; ok && lo <= hi && ci < n_cols; ci++) {
        fsc_buf_reset(&name);
        fsc_buf_printf(&name, "%g s", (double)ci * col / 1000.0);
        ok = !name.oom && fsc_chart_add_category(t, name.data);
    }
    for (int k = lo; ok && k <= hi; k++) {
        fsc_series *s = band_name(k, &name) ? fsc_chart_add_series(t, name.data) : NULL;
        ok = s != NULL;
        for (size_t ci = 0; ok && ci < n_cols; ci++)
            ok = fsc_series_add(s, (double)ci, tot[ci] > 0 && cells[ci * 41 + (size_t)k] > 0
                                                   ? 100.0 * cells[ci * 41 + (size_t)k] / tot[ci] : NAN);
    }
    fsc_buf_free(&name);
    free(cells);
    free(tot);
    free(bins);
    free(band);
    free(h);
    return ok;
}

fsc_chart *fsc_chart_lat_heatmap(const fsc_runset *set, const fsc_chart_time_opts *o)
{
    fsc_chart *c = fsc_chart_new(FSC_CHART_HEATMAP, "Latency over time");
    pairs ps;
    fsc_logkind want = fsc_logkind_is_hist(o->kind) ? o->kind : FSC_LOG_KIND_COUNT;
    bool ok = c && fsc_chart_axes(c, "time", FSC_UNIT_NONE, "share of the interval's I/Os", FSC_UNIT_PCT) &&
              fsc_chart_set_text(&c->row_title, "latency") && collect_pairs(set, o, want, &ps);
    for (size_t i = 0; ok && i < ps.n; i++) {
        /* heat maps are not drawn together: one panel per job when there are several */
        fsc_chart *t = ps.n > 1 ? fsc_chart_add_panel(c, ps.p[i].name) : c;
        ok = t && heat_pair(t, &ps.p[i], o) &&
             (t == c || fsc_chart_set_text(&t->row_title, "latency"));
    }
    ok = ok && note_more(c, &ps);
    if (c) {
        if (ok)
            ok = fsc_chart_set_text(&c->subtitle, "share of each interval's I/Os per latency band, from "
                                                  "the histogram logs");
        pairs_free(&ps);
    }
    if (!ok) {
        fsc_chart_free(c);
        return NULL;
    }
    return c;
}

/* ---- the report's "Over time" section ---- */

static bool run_has(const fsc_run *run, fsc_logkind k)
{
    for (size_t i = 0; i < run->n_series; i++)
        if (kind_wanted(k, run->series[i]->kind) && run->series[i]->n)
            return true;
    return false;
}

static bool put(fsc_chart *c, const fsc_run *run, size_t r, const char *what, fsc_chart **out,
                char **files, size_t *n, size_t max)
{
    if (!c)
        return false;
    if (*n >= max || !fsc_chart_has_data(c)) {
        fsc_chart_free(c);
        return true;
    }
    fsc_buf file = {0}, title = {0};
    fsc_buf_printf(&file, "time-%zu-%s", r + 1, what);
    fsc_buf_printf(&title, "%s: %s", run->label && *run->label ? run->label : run->id, c->title);
    if (file.oom || title.oom || !fsc_chart_set_text(&c->title, title.data)) {
        fsc_buf_free(&file);
        fsc_buf_free(&title);
        fsc_chart_free(c);
        return false;
    }
    fsc_buf_free(&title);
    out[*n] = c;
    files[(*n)++] = file.data;
    return true;
}

size_t fsc_chart_time_report(const fsc_runset *set, fsc_label_from from, fsc_chart **out,
                             char **files, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < set->n_runs; r++) {
        const fsc_run *run = set->runs[r];
        if (!run->n_series)
            continue;
        fsc_chart_time_opts o = {.run = r, .label_from = from};
        static const struct {
            fsc_logkind kind;
            const char *file;
        } kinds[] = {{FSC_LOG_IOPS, "iops"}, {FSC_LOG_BW, "bw"}, {FSC_LOG_CLAT, "clat"}};
        bool lat_done = false;
        for (size_t k = 0; k < FSC_ARRAY_SIZE(kinds); k++) {
            o.kind = kinds[k].kind;
            if (o.kind == FSC_LOG_CLAT && !run_has(run, FSC_LOG_CLAT))
                o.kind = run_has(run, FSC_LOG_LAT) ? FSC_LOG_LAT : FSC_LOG_CLAT;
            if (!run_has(run, o.kind))
                continue;
            lat_done |= o.kind == FSC_LOG_CLAT || o.kind == FSC_LOG_LAT;
            if (!put(fsc_chart_timeseries(set, &o), run, r, kinds[k].file, out, files, &n, max))
                return n;
        }
        (void)lat_done;
        if (run_has(run, FSC_LOG_KIND_COUNT)) {
            o.kind = FSC_LOG_KIND_COUNT;
            if (!put(fsc_chart_pctl_time(set, &o), run, r, "pctl", out, files, &n, max) ||
                !put(fsc_chart_lat_heatmap(set, &o), run, r, "heat", out, files, &n, max))
                return n;
        }
    }
    return n;
}
