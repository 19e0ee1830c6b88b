/* SPDX-License-Identifier: MIT */
/*
 * fio log series on a regular grid: resampling (per job, each direction or all),
 * combining clones, stability statistics for tables, and fio's steady-state criteria
 * (steadystate.c: the largest deviation from the mean, or the slope of a least-squares
 * line, over a window of one-second values) applied to a series after the fact.
 */
#include "fioscope/timeseries.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rows looked at to tell per-I/O logs and their period. */
#define PROBE_ROWS 4096
/* At most this many intervals in a grid (12 days of seconds): a log whose times span
 * more asks for a longer interval. */
#define MAX_INTERVALS ((size_t)1 << 20)

bool fsc_ts_per_io(const fsc_logseries *s)
{
    int64_t bs[PROBE_ROWS];
    size_t n = fsc_logseries_read(s, 0, PROBE_ROWS, FSC_COL_BS, bs);
    for (size_t i = 0; i < n; i++)
        if (bs[i] > 0)
            return true;
    return false;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

double fsc_ts_period(const fsc_logseries *s)
{
    if (!fsc_logkind_is_hist(s->kind) && fsc_ts_per_io(s))
        return 0;
    int64_t t[PROBE_ROWS], dir[PROBE_ROWS];
    size_t n = fsc_logseries_read(s, 0, PROBE_ROWS, FSC_COL_T, t);
    if (fsc_logseries_read(s, 0, n, FSC_COL_DIR, dir) != n)
        memset(dir, 0, sizeof dir);
    /* the median step between a direction's rows (reads and writes are logged each at
     * their own times); window ends jitter by a millisecond or two (200, 201, 199), so
     * a median next to a round figure is that figure */
    int64_t d[PROBE_ROWS], last[4] = {-1, -1, -1, -1};
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        int k = dir[i] >= 0 && dir[i] <= 3 ? (int)dir[i] : 3;
        if (last[k] >= 0 && t[i] > last[k])
            d[nd++] = t[i] - last[k];
        last[k] = t[i];
    }
    if (!nd)
        return 0;
    qsort(d, nd, sizeof *d, cmp_i64);
    int64_t med = d[nd / 2], round = (med + 5) / 10 * 10;
    return (double)(round && llabs(round - med) <= 2 ? round : med);
}

static int64_t first_time(const fsc_logseries *s)
{
    int64_t t = 0;
    return fsc_logseries_read(s, 0, 1, FSC_COL_T, &t) == 1 ? t : -1;
}

static int64_t last_time(const fsc_logseries *s)
{
    int64_t t = -1;
    if (s->n)
        fsc_logseries_read(s, s->n - 1, 1, FSC_COL_T, &t);
    return t;
}

double fsc_ts_origin(const fsc_logseries *const *s, size_t n)
{
    int64_t first = INT64_MAX, last = 0;
    double origin = INFINITY;
    for (size_t i = 0; i < n; i++) {
        int64_t f = s[i]->n ? first_time(s[i]) : -1, l = last_time(s[i]);
        if (f < 0)
            continue;
        if (f < first)
            first = f;
        if (l > last)
            last = l;
        /* an averaged log's first row ends its first window */
        double o = (double)f - (fsc_logkind_is_hist(s[i]->kind) ? 0 : fsc_ts_period(s[i]));
        if (o < origin)
            origin = o;
    }
    if (first == INT64_MAX)
        return 0;
    /* Unix time (log_unix_epoch), or another clock's (log_alternate_epoch): a start far
     * beyond the length of what was logged */
    if (first >= FSC_LOG_EPOCH_MS || (first > 60000 && first > 10 * (last - first)))
        return origin;
    return 0;
}

/* Accumulators of one interval, per direction. */
typedef struct cell {
    double sum[3], cnt[3], bytes[3];
} cell;

static bool grow_cells(cell **c, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 64;
    while (ncap < need)
        ncap *= 2;
    cell *nc = realloc(*c, ncap * sizeof *nc);
    if (!nc)
        return false;
    memset(nc + *cap, 0, (ncap - *cap) * sizeof *nc);
    *c = nc;
    *cap = ncap;
    return true;
}

fsc_status fsc_ts_resample(const fsc_logseries *s, const fsc_ts_opts *o, fsc_tsgrid *out)
{
    memset(out, 0, sizeof *out);
    if (fsc_logkind_is_hist(s->kind))
        return FSC_E_USAGE;
    bool per_io = fsc_ts_per_io(s);
    double period = per_io ? 0 : fsc_ts_period(s);
    double step = o && o->step_ms > 0 ? o->step_ms : period > 0 ? period : 1000;
    double origin = o && !isnan(o->origin_ms) ? o->origin_ms : fsc_ts_origin(&s, 1);
    int want_dir = o ? o->dir : -1;
    bool rate = s->kind == FSC_LOG_BW || s->kind == FSC_LOG_IOPS;
    /* latencies of fio before 2.99 are usec in the log: the grid is in ns */
    double lat_scale = !rate && s->usec ? 1000 : 1;
    cell *cells = NULL;
    size_t cap = 0, n = 0;
    int64_t *t = malloc(FSC_LOG_BLOCK * sizeof *t), *v = malloc(FSC_LOG_BLOCK * sizeof *v),
            *d = malloc(FSC_LOG_BLOCK * sizeof *d), *bs = malloc(FSC_LOG_BLOCK * sizeof *bs);
    fsc_status st = t && v && d && bs ? FSC_OK : FSC_E_NOMEM;
    for (size_t first = 0; st == FSC_OK && first < s->n; first += FSC_LOG_BLOCK) {
        size_t got = fsc_logseries_read(s, first, FSC_LOG_BLOCK, FSC_COL_T, t);
        fsc_logseries_read(s, first, got, FSC_COL_VALUE, v);
        if (!fsc_logseries_read(s, first, got, FSC_COL_DIR, d))
            memset(d, 0, got * sizeof *d);
        if (!fsc_logseries_read(s, first, got, FSC_COL_BS, bs))
            memset(bs, 0, got * sizeof *bs);
        for (size_t i = 0; i < got; i++) {
            if (d[i] < 0 || d[i] > 2 || (want_dir >= 0 && d[i] != want_dir))
                continue;
            /* a window's row stands at its end: it belongs where its middle is */
            double at = (double)t[i] - origin - (per_io ? 0 : period / 2);
            if (at < -step)
                continue;
            size_t k = at < 0 ? 0 : (size_t)floor(at / step);
            if (k >= MAX_INTERVALS) {
                st = FSC_E_LIMIT;
                break;
            }
            if (!grow_cells(&cells, &cap, k + 1)) {
                st = FSC_E_NOMEM;
                break;
            }
            if (k + 1 > n)
                n = k + 1;
            cell *c = &cells[k];
            c->sum[d[i]] += (double)v[i];
            c->cnt[d[i]] += 1;
            c->bytes[d[i]] += (double)bs[i];
        }
    }
    free(t);
    free(v);
    free(d);
    free(bs);
    if (st == FSC_OK && n) {
        out->v = malloc(n * sizeof *out->v);
        out->w = malloc(n * sizeof *out->w);
        if (!out->v || !out->w)
            st = FSC_E_NOMEM;
    }
    for (size_t k = 0; st == FSC_OK && k < n; k++) {
        const cell *c = &cells[k];
        double val = 0, w = 0, sum = 0;
        for (int dd = 0; dd < 3; dd++) {
            w += c->cnt[dd];
            sum += c->sum[dd];
            if (rate && per_io)
                val += s->kind == FSC_LOG_IOPS ? c->sum[dd] : c->bytes[dd] / 1024.0;
            else if (rate && c->cnt[dd])
                val += c->sum[dd] / c->cnt[dd]; /* mean of the windows, per direction */
        }
        if (rate && per_io)
            out->v[k] = val * 1000.0 / step; /* an interval without I/O did 0 I/Os */
        else if (rate)
            out->v[k] = w ? val : NAN;
        else
            out->v[k] = w ? sum / w * lat_scale : NAN;
        out->w[k] = w;
    }
    free(cells);
    if (st != FSC_OK) {
        fsc_tsgrid_free(out);
        return st;
    }
    out->kind = s->kind;
    out->step_ms = step;
    out->t0_ms = 0;
    out->n = n;
    return FSC_OK;
}

fsc_status fsc_ts_combine(const fsc_tsgrid *g, size_t n, fsc_tsgrid *out)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (g[i].kind != g[0].kind || g[i].step_ms != g[0].step_ms || g[i].t0_ms != g[0].t0_ms)
            return FSC_E_USAGE;
        if (g[i].n > len)
            len = g[i].n;
    }
    if (!n)
        return FSC_OK;
    out->kind = g[0].kind;
    out->step_ms = g[0].step_ms;
    out->t0_ms = g[0].t0_ms;
    if (!len)
        return FSC_OK;
    out->v = malloc(len * sizeof *out->v);
    out->w = malloc(len * sizeof *out->w);
    if (!out->v || !out->w) {
        fsc_tsgrid_free(out);
        return FSC_E_NOMEM;
    }
    out->n = len;
    bool rate = g[0].kind == FSC_LOG_BW || g[0].kind == FSC_LOG_IOPS;
    for (size_t k = 0; k < len; k++) {
        double sum = 0, w = 0, wv = 0;
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            if (k >= g[i].n || isnan(g[i].v[k]))
                continue;
            any = true;
            sum += g[i].v[k];
            w += g[i].w[k];
            wv += g[i].v[k] * g[i].w[k];
        }
        out->v[k] = !any ? NAN : rate ? sum : w > 0 ? wv / w : NAN;
        out->w[k] = w;
    }
    return FSC_OK;
}

void fsc_tsgrid_free(fsc_tsgrid *g)
{
    free(g->v);
    free(g->w);
    g->v = g->w = NULL;
    g->n = 0;
}

fsc_status fsc_ts_resample_all(const fsc_logseries *const *s, size_t n, const fsc_ts_opts *o,
                               fsc_tsgrid *out)
{
    memset(out, 0, sizeof *out);
    fsc_tsgrid *g = calloc(n ? n : 1, sizeof *g);
    if (!g)
        return FSC_E_NOMEM;
    size_t ok = 0;
    fsc_status st = FSC_OK;
    for (size_t i = 0; i < n && st == FSC_OK; i++)
        if ((st = fsc_ts_resample(s[i], o, &g[ok])) == FSC_OK)
            ok++;
    if (st == FSC_OK)
        st = fsc_ts_combine(g, ok, out);
    for (size_t i = 0; i < ok; i++)
        fsc_tsgrid_free(&g[i]);
    free(g);
    return st;
}

static int cmp_series(const void *a, const void *b)
{
    const fsc_logseries *x = *(const fsc_logseries *const *)a, *y = *(const fsc_logseries *const *)b;
    if (x->clone != y->clone)
        return x->clone - y->clone;
    return x->section - y->section;
}

size_t fsc_ts_job_series(const fsc_run *run, size_t job, fsc_logkind k,
                         const fsc_logseries **out, size_t max)
{
    const char *name = run->jobs[job].jobname ? run->jobs[job].jobname : "";
    size_t same = 0, rank = 0;
    for (size_t j = 0; j < run->n_jobs; j++)
        if (!strcmp(run->jobs[j].jobname ? run->jobs[j].jobname : "", name)) {
            if (j == job)
                rank = same;
            same++;
        }
    const fsc_logseries **all = malloc((run->n_series + 1) * sizeof *all);
    if (!all)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < run->n_series; i++)
        if (run->series[i]->kind == k && !strcmp(run->series[i]->job ? run->series[i]->job : "", name))
            all[n++] = run->series[i];
    qsort(all, n, sizeof *all, cmp_series);
    /* numjobs without group_reporting: one job entry per clone, in clone order */
    size_t from = 0, count = n;
    if (same > 1 && n == same) {
        from = rank;
        count = 1;
    }
    for (size_t i = 0; i < count && i < max; i++)
        out[i] = all[from + i];
    free(all);
    return count;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Percentile p of sorted v[0..n) by linear interpolation between closest ranks. */
static double pctl_sorted(const double *v, size_t n, double p)
{
    double pos = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)floor(pos);
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (v[lo + 1] - v[lo]) * (pos - (double)lo);
}

bool fsc_ts_stats(const fsc_tsgrid *g, fsc_tsstats *out)
{
    memset(out, 0, sizeof *out);
    double *v = malloc((g->n + 1) * sizeof *v);
    if (!v)
        return false;
    size_t n = 0;
    double sum = 0, st = 0, sx = 0, sxx = 0, sxy = 0;
    for (size_t k = 0; k < g->n; k++) {
        if (isnan(g->v[k]))
            continue;
        double x = (g->t0_ms + ((double)k + 0.5) * g->step_ms) / 1000.0;
        v[n++] = g->v[k];
        sum += g->v[k];
        sx += x;
        sxx += x * x;
        sxy += x * g->v[k];
        st += 1;
    }
    if (!n) {
        free(v);
        return false;
    }
    out->n = n;
    out->mean = sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - out->mean) * (v[i] - out->mean);
    out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    out->cv = out->mean != 0 ? out->stddev / fabs(out->mean) * 100.0 : 0;
    double den = st * sxx - sx * sx;
    out->slope = n > 1 && den != 0 ? (st * sxy - sx * sum) / den : 0;
    qsort(v, n, sizeof *v, cmp_double);
    out->min = v[0];
    out->max = v[n - 1];
    out->p5 = pctl_sorted(v, n, 5);
    out->p50 = pctl_sorted(v, n, 50);
    out->p95 = pctl_sorted(v, n, 95);
    out->p99 = pctl_sorted(v, n, 99);
    free(v);
    return true;
}

/* Stability of one kind of a job: its series resampled at their own period (1 s
 * per-I/O), every direction, clones combined. */
static fsc_status job_kind_stats(const fsc_run *run, size_t job, fsc_logkind k, double origin,
                                 fsc_tsstats *out)
{
    const fsc_logseries *ser[64];
    size_t n = fsc_ts_job_series(run, job, k, ser, 64);
    if (n > 64)
        n = 64;
    memset(out, 0, sizeof *out);
    if (!n)
        return FSC_OK;
    double step = 0;
    for (size_t i = 0; i < n && !step; i++)
        step = fsc_ts_period(ser[i]);
    fsc_ts_opts o = {.step_ms = step > 0 ? step : 1000, .dir = -1, .origin_ms = origin};
    fsc_tsgrid all;
    fsc_status st = fsc_ts_resample_all(ser, n, &o, &all);
    if (st == FSC_OK) {
        fsc_ts_stats(&all, out);
        fsc_tsgrid_free(&all);
    }
    return st;
}

fsc_status fsc_ts_annotate(fsc_runset *set)
{
    for (size_t r = 0; r < set->n_runs; r++) {
        fsc_run *run = set->runs[r];
        if (!run->n_series)
            continue;
        double origin = fsc_ts_origin((const fsc_logseries *const *)run->series, run->n_series);
        for (size_t j = 0; j < run->n_jobs; j++) {
            fsc_tsstats st[FSC_LOG_SLAT + 1];
            bool any = false;
            for (int k = 0; k <= FSC_LOG_SLAT; k++) {
                fsc_status rc = job_kind_stats(run, j, (fsc_logkind)k, origin, &st[k]);
                if (rc != FSC_OK)
                    return rc;
                any |= st[k].n > 0;
            }
            if (!any)
                continue;
            free(run->jobs[j].ts);
            run->jobs[j].ts = malloc(sizeof st);
            if (!run->jobs[j].ts)
                return FSC_E_NOMEM;
            memcpy(run->jobs[j].ts, st, sizeof st);
        }
    }
    return FSC_OK;
}

/* ---- fio's steady state ---- */

bool fsc_ss_crit_parse(const char *spec, fsc_ss_crit *out)
{
    unsigned dur = out->dur_s;
    double ramp = out->ramp_s;
    memset(out, 0, sizeof *out);
    out->dur_s = dur;
    out->ramp_s = ramp;
    const char *colon = strchr(spec, ':');
    if (!colon)
        return false;
    size_t kl = (size_t)(colon - spec);
    if (kl == 4 && !strncmp(spec, "iops", 4))
        out->on_iops = true;
    else if (kl == 10 && !strncmp(spec, "iops_slope", 10))
        out->on_iops = out->slope = true;
    else if (kl == 8 && !strncmp(spec, "bw_slope", 8))
        out->slope = true;
    else if (!(kl == 2 && !strncmp(spec, "bw", 2)))
        return false;
    char *end;
    out->limit = strtod(colon + 1, &end);
    if (end == colon + 1 || !isfinite(out->limit) || out->limit < 0)
        return false;
    if (*end == '%') {
        out->pct = true;
        end++;
    }
    return *end == '\0';
}

/* fio's criterion of one full window y[0..d) (steadystate.c). */
static double window_criterion(const double *y, unsigned d, const fsc_ss_crit *c, double *mean_out)
{
    double sum_y = 0;
    for (unsigned i = 0; i < d; i++)
        sum_y += y[i];
    double mean = sum_y / d;
    *mean_out = mean;
    if (c->slope) {
        double sum_x = (double)d * (d - 1) / 2, sum_x_sq = (double)(d - 1) * d * (2.0 * d - 1) / 6;
        double sum_xy = 0;
        for (unsigned i = 0; i < d; i++)
            sum_xy += i * y[i];
        double slope = (sum_xy - sum_x * sum_y / d) / (sum_x_sq - sum_x * sum_x / d);
        return c->pct ? 100.0 * slope / mean : slope;
    }
    double dev = 0;
    for (unsigned i = 0; i < d; i++)
        dev = fmax(dev, fabs(y[i] - mean));
    return c->pct ? 100.0 * dev / mean : dev;
}

fsc_status fsc_ss_detect(const fsc_tsgrid *g, const fsc_ss_crit *c, fsc_ss_result *out)
{
    memset(out, 0, sizeof *out);
    if (g->step_ms != 1000 || c->dur_s < 1 || (c->slope && c->dur_s < 2))
        return FSC_E_USAGE;
    double *y = malloc(c->dur_s * sizeof *y);
    if (!y)
        return FSC_E_NOMEM;
    /* fio starts recording one second after the ramp */
    size_t k0 = (size_t)ceil((c->ramp_s > 0 ? c->ramp_s + 1 : 0) * 1000.0 / g->step_ms);
    double scale = c->on_iops ? 1 : 1024; /* bw is judged in bytes/s */
    for (size_t k = k0; k + c->dur_s <= g->n; k++) {
        bool gap = false;
        for (unsigned i = 0; i < c->dur_s; i++) {
            double v = g->v[k + i];
            gap |= isnan(v);
            y[i] = v * scale;
        }
        if (gap)
            continue;
        double mean;
        double crit = window_criterion(y, c->dur_s, c, &mean);
        out->windows++;
        out->criterion = crit;
        out->mean = mean;
        out->t_ms = g->t0_ms + (double)(k + c->dur_s) * g->step_ms;
        if (fabs(crit) < c->limit) {
            out->attained = true;
            break;
        }
    }
    free(y);
    return FSC_OK;
}
