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

/* Decimal text of v ending at end; returns its first character. */
static char *i64_digits(char *end, int64_t v)
{
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char *p = end;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return p;
}

/* Numbers joined by commas, built in a stack chunk and appended in bulk. */
typedef struct numwriter {
    fsc_buf *out;
    char chunk[16384];
    size_t len;
    bool first;
} numwriter;

static void nw_flush_chunk(numwriter *nw)
{
    fsc_buf_add(nw->out, nw->chunk, nw->len);
    nw->len = 0;
}

static void nw_put(numwriter *nw, int64_t v)
{
    char tmp[24];
    char *e = tmp + sizeof tmp, *p = i64_digits(e, v);
    size_t n = (size_t)(e - p);
    if (nw->len + n + 1 > sizeof nw->chunk)
        nw_flush_chunk(nw);
    if (!nw->first)
        nw->chunk[nw->len++] = ',';
    nw->first = false;
    memcpy(nw->chunk + nw->len, p, n);
    nw->len += n;
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
    numwriter nw = {.out = w->out, .first = true};
    bool ok = true;
    for (size_t first = 0; ok && first < s->n; first += FSC_LOG_BLOCK) {
        size_t got = fsc_logseries_read(s, first, FSC_LOG_BLOCK, c, buf);
        for (size_t i = 0; i < got; i++)
            nw_put(&nw, buf[i] * scale);
        nw_flush_chunk(&nw);
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
    numwriter nw = {.out = w->out};
    bool ok = true;
    for (size_t r = 0; ok && r < s->n; r++) {
        if (r)
            fsc_buf_putc(w->out, ',');
        fsc_buf_putc(w->out, '[');
        nw.first = true;
        fsc_logseries_hist_row(s, r, bins);
        for (uint32_t k = 0; k < s->n_bins; k++)
            nw_put(&nw, (int64_t)bins[k]);
        nw_flush_chunk(&nw);
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
    if (ss->bw_mean.set || ss->iops_mean.set || ss->n_bw || ss->n_iops) {
        fsc_jw_key(w, "data");
        fsc_jw_obj(w);
        num_member(w, "bw_mean", ss->bw_mean);
        num_member(w, "iops_mean", ss->iops_mean);
        if (ss->n_iops)
            num_array(w, "iops", ss->iops, ss->n_iops);
        if (ss->n_bw)
            num_array(w, "bw", ss->bw, ss->n_bw);
        fsc_jw_obj_end(w);
    }
    fsc_jw_obj_end(w);
}
