/* SPDX-License-Identifier: MIT */
/*
 * The contract JSON of fio log series (SERIES) and of fio's steadystate object. Series
 * columns can be millions of numbers: they are written compactly, block by block, and
 * handed to the caller's flush whenever the buffer grows past about 1 MiB.
 */
#include "fioscope/model_json.h"

#include <stdlib.h>
#include <string.h>

#define FLUSH_BYTES ((size_t)1 << 20)

static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

static unsigned n_digits(uint64_t u)
{
    unsigned n = 1;
    for (;;) {
        if (u < 10)
            return n;
        if (u < 100)
            return n + 1;
        if (u < 1000)
            return n + 2;
        if (u < 10000)
            return n + 3;
        u /= 10000;
        n += 4;
    }
}

/* Decimal digits of u at p, two at a time from the end; returns the end. */
static inline char *put_u64(char *p, uint64_t u)
{
    char *e = p + n_digits(u), *q = e;
    while (u >= 100) {
        unsigned r = (unsigned)(u % 100) * 2;
        u /= 100;
        q -= 2;
        q[0] = digit_pairs[r];
        q[1] = digit_pairs[r + 1];
    }
    if (u >= 10) {
        q[-2] = digit_pairs[u * 2];
        q[-1] = digit_pairs[u * 2 + 1];
    } else {
        q[-1] = (char)('0' + u);
    }
    return e;
}

/* n numbers v[i] * scale, comma-separated (a comma first unless *first), written
 * straight into out. */
static void put_numbers(fsc_buf *out, const int64_t *v, size_t n, int64_t scale, bool *first)
{
    if (!n)
        return;
    char *p = fsc_buf_room(out, n * 22 + 1), *start = p;
    if (!p)
        return;
    for (size_t i = 0; i < n; i++) {
        int64_t x = v[i] * scale;
        *p++ = ',';
        if ((uint64_t)x < 10) { /* directions, priorities, zeros */
            *p++ = (char)('0' + x);
        } else if (x < 0) {
            *p++ = '-';
            p = put_u64(p, (uint64_t)0 - (uint64_t)x);
        } else {
            p = put_u64(p, (uint64_t)x);
        }
    }
    if (*first) { /* no comma before the first number */
        memmove(start, start + 1, (size_t)(p - start - 1));
        p--;
        *first = false;
    }
    out->len += (size_t)(p - start);
    out->data[out->len] = '\0';
}

/* Give the buffer to the caller's flush when it is large. False: stop writing. */
static bool maybe_flush(fsc_jw *w, const fsc_json_opts *o)
{
    if (!o || !o->flush || w->out->len < FLUSH_BYTES)
        return true;
    return o->flush(o->flush_ctx, w->out);
}

static bool write_column(fsc_jw *w, const fsc_logseries *s, fsc_logcol c, int64_t scale,
                         int64_t *buf, const fsc_json_opts *o)
{
    fsc_jw_key(w, fsc_logcol_name(c));
    fsc_jw_value_begin(w);
    fsc_buf_putc(w->out, '[');
    bool ok = true, first_num = true;
    for (size_t first = 0; ok && first < s->n; first += FSC_LOG_BLOCK) {
        size_t got = fsc_logseries_read(s, first, FSC_LOG_BLOCK, c, buf);
        put_numbers(w->out, buf, got, scale, &first_num);
        ok = maybe_flush(w, o);
    }
    fsc_buf_putc(w->out, ']');
    return ok;
}

static bool write_bins(fsc_jw *w, const fsc_logseries *s, const fsc_json_opts *o)
{
    uint64_t *bins = s->n_bins ? malloc((size_t)s->n_bins * sizeof *bins) : NULL;
    if (s->n_bins && !bins) {
        w->out->oom = true;
        return false;
    }
    fsc_jw_key(w, "bins");
    fsc_jw_value_begin(w);
    fsc_buf_putc(w->out, '[');
    bool ok = true;
    for (size_t r = 0; ok && r < s->n; r++) {
        if (r)
            fsc_buf_putc(w->out, ',');
        fsc_buf_putc(w->out, '[');
        bool first_num = true;
        fsc_logseries_hist_row(s, r, bins);
        put_numbers(w->out, (const int64_t *)bins, s->n_bins, 1, &first_num);
        fsc_buf_putc(w->out, ']');
        ok = maybe_flush(w, o);
    }
    fsc_buf_putc(w->out, ']');
    free(bins);
    return ok;
}

void fsc_model_write_series(fsc_jw *w, const fsc_logseries *s, const fsc_json_opts *opts)
{
    bool hist = fsc_logkind_is_hist(s->kind);
    fsc_jw_obj(w);
    fsc_jw_key(w, "job");
    fsc_jw_str(w, s->job ? s->job : "");
    fsc_jw_key(w, "kind");
    fsc_jw_str(w, fsc_logkind_name(s->kind));
    fsc_jw_key(w, "path");
    fsc_jw_str(w, s->path ? s->path : "");
    if (s->member) {
        fsc_jw_key(w, "member");
        fsc_jw_str(w, s->member);
    }
    fsc_jw_key(w, "unit");
    /* fio 2.x histograms keep their usec bin layout: their bins are not converted */
    fsc_jw_str(w, hist && s->usec ? "us" : fsc_logkind_unit(s->kind));
    if (s->clone) {
        fsc_jw_key(w, "clone");
        fsc_jw_num(w, s->clone);
    }
    if (s->section) {
        fsc_jw_key(w, "section");
        fsc_jw_num(w, s->section);
    }
    if (hist) {
        fsc_jw_key(w, "hist_coarseness");
        fsc_jw_num(w, s->coarseness);
    }
    int64_t *buf = malloc(FSC_LOG_BLOCK * sizeof *buf);
    bool ok = buf != NULL;
    if (!ok)
        w->out->oom = true;
    for (int c = 0; ok && c < FSC_COL_COUNT; c++) {
        if (!(s->cols & FSC_COLBIT(c)))
            continue;
        /* fio before 2.99 logged latencies in usec: base unit ns, exactly */
        bool lat_value = (c == FSC_COL_VALUE || c == FSC_COL_MAX) && s->usec && !hist &&
                         s->kind != FSC_LOG_BW && s->kind != FSC_LOG_IOPS;
        ok = write_column(w, s, (fsc_logcol)c, lat_value ? 1000 : 1, buf, opts);
        if (hist && ok && c == FSC_COL_T) /* "bins" in place of "value", right after t_ms */
            ok = write_bins(w, s, opts);
    }
    free(buf);
    fsc_jw_obj_end(w);
}

static void num_member(fsc_jw *w, const char *key, fsc_num v)
{
    if (!v.set)
        return;
    fsc_jw_key(w, key);
    fsc_jw_num(w, v.v);
}

static void num_array(fsc_jw *w, const char *key, const double *v, size_t n)
{
    fsc_jw_key(w, key);
    fsc_jw_arr(w);
    for (size_t i = 0; i < n; i++)
        fsc_jw_num(w, v[i]);
    fsc_jw_arr_end(w);
}

void fsc_model_write_steadystate(fsc_jw *w, const fsc_steady *ss)
{
    if (!ss->present)
        return;
    fsc_jw_key(w, "steadystate");
    fsc_jw_obj(w);
    if (ss->ss) {
        fsc_jw_key(w, "ss");
        fsc_jw_str(w, ss->ss);
    }
    num_member(w, "duration", ss->duration);
    num_member(w, "steadystate_ramptime", ss->ramptime);
    num_member(w, "attained", ss->attained);
    if (ss->criterion) {
        fsc_jw_key(w, "criterion");
        fsc_jw_str(w, ss->criterion);
    }
    num_member(w, "max_deviation", ss->max_deviation);
    num_member(w, "slope", ss->slope);
    if (ss->bw_mean.set || ss->iops_mean.set || ss->lat_mean.set || ss->n_bw || ss->n_iops || ss->n_lat) {
        fsc_jw_key(w, "data");
        fsc_jw_obj(w);
        num_member(w, "bw_mean", ss->bw_mean);
        num_member(w, "iops_mean", ss->iops_mean);
        num_member(w, "lat_mean", ss->lat_mean);
        if (ss->n_lat)
            num_array(w, "lat_ns", ss->lat, ss->n_lat);
        if (ss->n_iops)
            num_array(w, "iops", ss->iops, ss->n_iops);
        if (ss->n_bw)
            num_array(w, "bw", ss->bw, ss->n_bw);
        fsc_jw_obj_end(w);
    }
    fsc_jw_obj_end(w);
}
