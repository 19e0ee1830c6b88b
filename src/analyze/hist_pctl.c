/* SPDX-License-Identifier: MIT */
/*
 * Latency percentiles over time from fio's histogram logs (write_hist_log), computed
 * the way fio's own tools/hist/fiologparser_hist.py computes them by default, so that
 * the numbers agree with it to the last printed digit:
 *
 *  - the rows of all logs are merged by time (the first log wins a tie);
 *  - for each output interval [start, end), every row that ended less than
 *    max_latency seconds after it contributes each bin b whose I/Os started before
 *    `end`, where an I/O of bin b in a row ending at t started at
 *    t - interval/2 - latency(b), weighted by the part of [start time, t] that lies in
 *    the interval;
 *  - percentiles are read off the weighted histogram by linear interpolation of its
 *    mid-point CDF (numpy.interp), the mean is the weighted mean of the bin values,
 *    and min / max are the bounds of the bins next to the outermost non-empty ones.
 *
 * The sums follow numpy's order (cumulative sums left to right, totals by pairwise
 * summation), which decides the last bits of the result.
 */
#include "fioscope/timeseries.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double fsc_hist_bin_value(uint32_t i, unsigned coarseness, double edge)
{
    /* fio's plat_idx_to_val (stat.c), as fiologparser_hist.py writes it: 64 buckets
     * per power of two; the first 128 indexes are the values themselves */
    uint64_t stride = (uint64_t)1 << coarseness;
    uint64_t idx = (uint64_t)i * stride;
    double lower, upper;
    for (int side = 0; side < 2; side++) {
        uint64_t x = side ? idx + stride : idx;
        double e = side ? 1.0 : 0.0, val;
        if (x < 128) {
            val = (double)x;
        } else {
            uint64_t error_bits = (x >> 6) - 1;
            double base = (double)((uint64_t)1 << (error_bits + 6));
            val = base + ((double)(x % 64) + e) * (double)((uint64_t)1 << error_bits);
        }
        if (side)
            upper = val;
        else
            lower = val;
    }
    return lower + (upper - lower) * edge;
}

/* numpy's pairwise sum of a contiguous float64 array (the order np.sum adds in). */
static double pairwise_sum(const double *a, size_t n)
{
    if (n < 8) {
        double r = 0.;
        for (size_t i = 0; i < n; i++)
            r += a[i];
        return r;
    }
    if (n <= 128) {
        double r[8];
        size_t i;
        for (int j = 0; j < 8; j++)
            r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

/* np.sum: blocks of 8192 elements summed pairwise, the blocks added in order. */
static double np_sum(const double *a, size_t n)
{
    double s = 0.;
    for (size_t i = 0; i < n; i += 8192)
        s += pairwise_sum(a + i, n - i < 8192 ? n - i : 8192);
    return s;
}

/* numpy.interp(x, xp, fp) for increasing xp (repeats allowed). */
static double np_interp(double x, const double *xp, const double *fp, size_t n)
{
    if (isnan(x))
        return x;
    if (x < xp[0])
        return fp[0];
    if (x > xp[n - 1])
        return fp[n - 1];
    if (x == xp[n - 1])
        return fp[n - 1];
    /* j with xp[j] <= x < xp[j + 1] */
    size_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (xp[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    size_t j = lo;
    if (xp[j] == x)
        return fp[j];
    double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    double r = slope * (x - xp[j]) + fp[j];
    if (isnan(r)) {
        r = slope * (x - xp[j + 1]) + fp[j + 1];
        if (isnan(r) && fp[j] == fp[j + 1])
            r = fp[j];
    }
    return r;
}

/* A row of the merged logs, kept while it can still contribute. */
typedef struct hrow {
    int64_t t;
    uint64_t *bins;
} hrow;

typedef struct merger {
    const fsc_logseries *const *h;
    size_t n;
    size_t *next;   /* next row of each log */
    int64_t *head;  /* its time (valid while next < rows) */
} merger;

/* The next row of the merged logs (the log with the smallest next time; the first
 * such log on a tie, as Python's min() takes it). False at the end. */
static bool merger_next(merger *m, uint32_t n_bins, hrow *out, bool *oom)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < m->n; i++)
        if (m->next[i] < m->h[i]->n && (best == SIZE_MAX || m->head[i] < m->head[best]))
            best = i;
    if (best == SIZE_MAX)
        return false;
    out->t = m->head[best];
    out->bins = malloc((size_t)n_bins * sizeof *out->bins);
    if (!out->bins) {
        *oom = true;
        return false;
    }
    fsc_logseries_hist_row(m->h[best], m->next[best], out->bins);
    m->next[best]++;
    if (m->next[best] < m->h[best]->n)
        fsc_logseries_read(m->h[best], m->next[best], 1, FSC_COL_T, &m->head[best]);
    return true;
}

typedef struct hctx {
    uint32_t nb;
    double *bin_vals, *lower, *upper;
    double time_div;
    double interval;
    double *ihist, *tmp, *cdf;
    const double *pcts;
    size_t n_pcts;
} hctx;

static bool add_row(fsc_hpctl *out, size_t n_pct, double end, double samples, double mn, double avg,
                    const double *ps, double mx)
{
    fsc_hpctl_row *r = FSC_PUSH(out->rows, out->n, out->cap);
    if (!r)
        return false;
    r->pct = malloc(n_pct * sizeof *r->pct);
    if (!r->pct) {
        out->n--;
        return false;
    }
    r->end_ms = end;
    r->samples = samples;
    r->min = mn;
    r->avg = avg;
    r->max = mx;
    memcpy(r->pct, ps, n_pct * sizeof *ps);
    return true;
}

/* fiologparser_hist.py's process_weighted_interval for the pooled direction. */
static bool interval_stats(hctx *c, const hrow *rows, size_t n, double i_start, double i_end,
                           fsc_hpctl *out)
{
    uint32_t nb = c->nb;
    memset(c->ihist, 0, nb * sizeof *c->ihist);
    double ss_cnt = 0, mn = NAN, mx = NAN;
    for (size_t r = 0; r < n; r++) {
        double t = (double)rows[r].t;
        double base = t - 0.5 * c->interval;
        const uint64_t *hs = rows[r].bins;
        /* bins whose I/Os started before the end of the interval: a suffix, since
         * the start time falls as the latency grows */
        uint32_t k0 = 0;
        while (k0 < nb && !(base - c->bin_vals[k0] / c->time_div < i_end))
            k0++;
        double eb = fmin(t, i_end);
        int64_t first = -1, last = -1;
        uint64_t cnt = 0;
        for (uint32_t i = k0; i < nb; i++) {
            double st = base - c->bin_vals[i] / c->time_div;
            double sb = st > i_start ? st : i_start;
            double w = (eb - sb) / (t - st);
            if (isnan(w))
                w = 0.0;
            c->ihist[i] += (double)hs[i] * w;
            cnt += hs[i];
            if (hs[i]) {
                if (first < 0)
                    first = i - k0;
                last = i - k0;
            }
        }
        ss_cnt += (double)cnt;
        if (first >= 0) {
            size_t len = nb - k0;
            double lo = c->lower[k0 + (first > 0 ? (size_t)first - 1 : 0)];
            double hi = c->upper[k0 + ((size_t)last + 1 < len ? (size_t)last + 1 : len - 1)];
            mn = isnan(mn) ? lo : fmin(mn, lo);
            mx = isnan(mx) ? hi : fmax(mx, hi);
        }
    }
    if (!(ss_cnt > 0))
        return true;
    /* weighted_percentile: cdf = 100 * (cumsum(ws) - ws / 2) / sum(ws) */
    double total = np_sum(c->ihist, nb), cum = 0;
    for (uint32_t i = 0; i < nb; i++) {
        cum += c->ihist[i];
        c->cdf[i] = 100 * (cum - c->ihist[i] / 2.0) / total;
    }
    double ps[64];
    for (size_t k = 0; k < c->n_pcts && k < 64; k++)
        ps[k] = np_interp(c->pcts[k], c->cdf, c->bin_vals, nb);
    for (uint32_t i = 0; i < nb; i++)
        c->tmp[i] = c->bin_vals[i] * c->ihist[i];
    double avg = np_sum(c->tmp, nb) / np_sum(c->ihist, nb);
    return add_row(out, c->n_pcts, i_end, ss_cnt, mn, avg, ps, mx);
}

void fsc_hpctl_free(fsc_hpctl *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->rows[i].pct);
    free(p->rows);
    free(p->pcts);
    memset(p, 0, sizeof *p);
}

fsc_status fsc_hist_pctl(const fsc_logseries *const *hists, size_t n, const fsc_hpctl_opts *o,
                         fsc_hpctl *out)
{
    static const double default_pcts[] = {90, 95, 99};
    memset(out, 0, sizeof *out);
    if (!n)
        return FSC_OK;
    uint32_t nb = hists[0]->n_bins;
    for (size_t i = 0; i < n; i++)
        if (!fsc_logkind_is_hist(hists[i]->kind) || (hists[i]->n && hists[i]->n_bins != nb) ||
            hists[i]->usec != hists[0]->usec || hists[i]->coarseness != hists[0]->coarseness)
            return FSC_E_USAGE;
    if (!nb)
        return FSC_OK;
    const double *req = o && o->pcts ? o->pcts : default_pcts;
    size_t n_req = o && o->pcts ? o->n_pcts : 3;
    if (n_req > 63)
        n_req = 63;
    hctx c = {.nb = nb, .time_div = hists[0]->usec ? 1000.0 : 1000000.0,
              .interval = o && o->interval_ms > 0 ? o->interval_ms : 1000, .n_pcts = n_req + 1};
    double max_latency = o && o->max_latency_s > 0 ? o->max_latency_s : 20;
    out->pcts = malloc(c.n_pcts * sizeof *out->pcts);
    c.bin_vals = malloc(nb * sizeof(double));
    c.lower = malloc(nb * sizeof(double));
    c.upper = malloc(nb * sizeof(double));
    c.ihist = malloc(nb * sizeof(double));
    c.tmp = malloc(nb * sizeof(double));
    c.cdf = malloc(nb * sizeof(double));
    merger m = {hists, n, calloc(n, sizeof(size_t)), calloc(n, sizeof(int64_t))};
    hrow *arr = NULL;
    size_t n_arr = 0, cap_arr = 0;
    bool oom = !out->pcts || !c.bin_vals || !c.lower || !c.upper || !c.ihist || !c.tmp ||
               !c.cdf || !m.next || !m.head;
    if (!oom) {
        out->pcts[0] = 50.0; /* always the median first */
        memcpy(out->pcts + 1, req, n_req * sizeof *req);
        out->n_pct = c.n_pcts;
        out->usec = hists[0]->usec;
        c.pcts = out->pcts;
        for (uint32_t i = 0; i < nb; i++) {
            c.bin_vals[i] = fsc_hist_bin_value(i, hists[0]->coarseness, 0.5);
            c.lower[i] = fsc_hist_bin_value(i, hists[0]->coarseness, 0.0);
            c.upper[i] = fsc_hist_bin_value(i, hists[0]->coarseness, 1.0);
        }
        for (size_t i = 0; i < n; i++)
            if (hists[i]->n)
                fsc_logseries_read(hists[i], 0, 1, FSC_COL_T, &m.head[i]);
    }
    /* output_weighted_interval_data */
    double start = 0, end = c.interval;
    bool more = true;
    while (!oom && (more || n_arr)) {
        while (more && (n_arr == 0 || (double)arr[n_arr - 1].t < max_latency * 1000 + end)) {
            hrow r;
            if (!merger_next(&m, nb, &r, &oom)) {
                more = false;
                break;
            }
            hrow *slot = FSC_PUSH(arr, n_arr, cap_arr);
            if (!slot) {
                free(r.bins);
                oom = true;
                break;
            }
            *slot = r;
        }
        if (oom)
            break;
        if (n_arr) {
            /* jump to the first row (Unix-time logs), rounded down to the interval */
            if (start == 0 && (double)arr[0].t - max_latency > end) {
                start = (double)arr[0].t - max_latency;
                start = start - fmod(start, c.interval);
                end = start + c.interval;
            }
            /* Intervals that no held row reaches print nothing: skip them at once (a
             * log with a long gap in time would take an interval at a time) */
            double reach = INFINITY;
            for (size_t i = 0; i < n_arr; i++)
                reach = fmin(reach, (double)arr[i].t - 0.5 * c.interval -
                                        c.bin_vals[nb - 1] / c.time_div);
            if (reach - end >= 2 * c.interval) {
                double k = floor((reach - end) / c.interval) - 1;
                start += k * c.interval;
                end = start + c.interval;
            }
            if (!interval_stats(&c, arr, n_arr, start, end, out)) {
                oom = true;
                break;
            }
            /* keep the rows that end after this interval */
            size_t k = 0;
            for (size_t i = 0; i < n_arr; i++) {
                if ((double)arr[i].t > end)
                    arr[k++] = arr[i];
                else
                    free(arr[i].bins);
            }
            n_arr = k;
        }
        start += c.interval;
        end = start + c.interval;
    }
    for (size_t i = 0; i < n_arr; i++)
        free(arr[i].bins);
    free(arr);
    free(m.next);
    free(m.head);
    free(c.bin_vals);
    free(c.lower);
    free(c.upper);
    free(c.ihist);
    free(c.tmp);
    free(c.cdf);
    if (oom) {
        fsc_hpctl_free(out);
        return FSC_E_NOMEM;
    }
    return FSC_OK;
}

/* Python's "%d" of a float: truncation toward zero. */
static void put_trunc(fsc_buf *b, double v)
{
    fsc_buf_printf(b, "%.0f", trunc(v) == 0 ? 0.0 : trunc(v));
}

void fsc_hpctl_text(const fsc_hpctl *p, int decimals, fsc_buf *out)
{
    fsc_buf_puts(out, "end-time, samples, min, avg, median");
    for (size_t k = 1; k < p->n_pct; k++)
        fsc_buf_printf(out, ", %g%%", p->pcts[k]);
    fsc_buf_puts(out, ", max\n");
    for (size_t i = 0; i < p->n; i++) {
        const fsc_hpctl_row *r = &p->rows[i];
        put_trunc(out, r->end_ms);
        fsc_buf_puts(out, ", ");
        put_trunc(out, r->samples);
        fsc_buf_puts(out, ", ");
        put_trunc(out, r->min);
        fsc_buf_printf(out, ", %.*f", decimals, r->avg);
        for (size_t k = 0; k < p->n_pct; k++)
            fsc_buf_printf(out, ", %.*f", decimals, r->pct[k]);
        fsc_buf_puts(out, ", ");
        put_trunc(out, r->max);
        fsc_buf_putc(out, '\n');
    }
}
