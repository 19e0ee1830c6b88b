/* SPDX-License-Identifier: MIT */
/*
 * Metric names (JSON paths of the run model, a few shorthands and the dimensions of
 * the analysis) and their value for one job. docs/tables.md and docs/analysis.md list
 * the names; this file is the definition.
 */
#include "fioscope/metric.h"
#include "fioscope/timeseries.h"

#include "fioscope/analyze.h"

#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name, *title;
    fsc_mtext text;
    int dim; /* the dimension of the same name, or -1 */
} text_metrics[] = {
    {"label", "label", FSC_MT_LABEL, FSC_DIM_LABEL},
    {"dir", "dir", FSC_MT_DIR, FSC_DIM_DIR},
    {"rw", "rw", FSC_MT_RW, FSC_DIM_RW},
    {"bs", "bs", FSC_MT_BS, FSC_DIM_BS},
    {"ioengine", "ioengine", FSC_MT_IOENGINE, FSC_DIM_IOENGINE},
    {"iodepth", "iodepth", FSC_MT_IODEPTH, FSC_DIM_IODEPTH},
    {"jobs", "jobs", FSC_MT_JOBS, -1},
    {"jobname", "job", FSC_MT_JOBNAME, FSC_DIM_JOBNAME},
    {"fio_version", "fio", FSC_MT_FIO_VERSION, FSC_DIM_FIO_VERSION},
    {"file", "file", FSC_MT_FILE, FSC_DIM_FILE},
    {"run", "run", FSC_MT_RUN, -1},
    {"time", "time", FSC_MT_TIME, -1},
    {"date", "date", FSC_MT_DATE, -1},
    /* dimensions of the analysis that have no job-level text of their own */
    {"system", "system", FSC_MT_DIM, FSC_DIM_SYSTEM},
    {"numjobs", "numjobs", FSC_MT_DIM, FSC_DIM_NUMJOBS},
    {"direct", "direct", FSC_MT_DIM, FSC_DIM_DIRECT},
    {"workload", "workload", FSC_MT_DIM, FSC_DIM_WORKLOAD},
    {"heading", "heading", FSC_MT_DIM, FSC_DIM_HEADING},
    {"host", "host", FSC_MT_DIM, FSC_DIM_HOST},
    {"repeat", "repeat", FSC_MT_DIM, FSC_DIM_REPEAT},
};

/* Latency kinds accept fio's names and short ones: "clat_ns" or "clat". */
static int latkind_from(const char *s, size_t n)
{
    static const char *const shortn[] = {"slat", "clat", "lat"};
    for (int k = 0; k < FSC_LAT_COUNT; k++) {
        const char *full = fsc_latkind_name((fsc_latkind)k);
        if ((strlen(full) == n && !memcmp(full, s, n)) ||
            (strlen(shortn[k]) == n && !memcmp(shortn[k], s, n)))
            return k;
    }
    return -1;
}

/* "min" "max" "mean" "stddev" "N" or "pNN" / "p99.9" (0 < NN <= 100). */
static bool lstat_from(const char *s, size_t n, fsc_lstat *st, double *pct)
{
    static const struct {
        const char *name;
        fsc_lstat st;
    } tab[] = {{"min", FSC_LS_MIN},       {"max", FSC_LS_MAX}, {"mean", FSC_LS_MEAN},
               {"stddev", FSC_LS_STDDEV}, {"N", FSC_LS_N},     {"n", FSC_LS_N}};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(tab); i++)
        if (strlen(tab[i].name) == n && !memcmp(tab[i].name, s, n)) {
            *st = tab[i].st;
            return true;
        }
    if (n < 2 || n > 20 || s[0] != 'p')
        return false;
    char tmp[24];
    memcpy(tmp, s + 1, n - 1);
    tmp[n - 1] = '\0';
    if (strspn(tmp, "0123456789.") != n - 1 || tmp[0] == '.')
        return false;
    char *end;
    double v = strtod(tmp, &end);
    if (*end || !(v > 0 && v <= 100))
        return false;
    *st = FSC_LS_PCT;
    *pct = v;
    return true;
}

static fsc_magg agg_for_unit(fsc_unit u)
{
    switch (u) {
    case FSC_UNIT_PCT:
        return FSC_AGG_MEAN;
    case FSC_UNIT_MS:
        return FSC_AGG_MAX;
    case FSC_UNIT_NONE:
        return FSC_AGG_MIN;
    default:
        return FSC_AGG_SUM;
    }
}

static bool higher_is_better(fsc_unit u)
{
    return u == FSC_UNIT_IOPS || u == FSC_UNIT_BYTES || u == FSC_UNIT_BYTES_PER_S ||
           u == FSC_UNIT_KIB_PER_S;
}

/* "clat p99", "read lat", "read IOPS": the name made readable. */
static void make_title(fsc_mspec *s, const char *dir, const char *what)
{
    snprintf(s->title, sizeof s->title, "%s%s%s", dir ? dir : "", dir ? " " : "", what);
}

static void lat_title(fsc_mspec *s, const char *dir, int lk)
{
    static const char *const shortn[] = {"slat", "clat", "lat"};
    static const char *const stats[] = {"min", "max", "", "stddev", "N"};
    char what[40];
    if (s->stat == FSC_LS_PCT)
        snprintf(what, sizeof what, "%s p%g", shortn[lk], s->pct);
    else
        snprintf(what, sizeof what, "%s%s%s", shortn[lk], *stats[s->stat] ? " " : "",
                 stats[s->stat]);
    make_title(s, dir, what);
}

static void set_lat(fsc_mspec *s, int lk)
{
    s->latkind = lk;
    s->m.unit = s->stat == FSC_LS_N ? FSC_UNIT_COUNT : FSC_UNIT_NS;
    s->agg = s->stat == FSC_LS_MIN   ? FSC_AGG_MIN
             : s->stat == FSC_LS_MAX ? FSC_AGG_MAX
             : s->stat == FSC_LS_N   ? FSC_AGG_SUM
                                     : FSC_AGG_WMEAN;
    s->m.higher_better = false;
}

/* "lat", "clat.p99", "lat_ns.mean" (kind[.stat]), direction dir or -1. */
static bool parse_lat(fsc_mspec *s, const char *p, size_t n, int dir)
{
    const char *dot = memchr(p, '.', n);
    size_t kl = dot ? (size_t)(dot - p) : n;
    int lk = latkind_from(p, kl);
    if (lk < 0)
        return false;
    s->stat = FSC_LS_MEAN;
    if (dot && !lstat_from(dot + 1, n - kl - 1, &s->stat, &s->pct))
        return false;
    s->kind = dir < 0 ? FSC_MK_ALL_LAT : FSC_MK_DIR_LAT;
    s->dir = dir;
    set_lat(s, lk);
    lat_title(s, dir < 0 ? NULL : fsc_ddir_name((fsc_ddir)dir), lk);
    return true;
}

/* A latency of one I/O priority of direction dir: "clat_high_prio[.stat]" (and low,
 * and lat_*: fio 3.18-3.29's JSON names) or "prio.C/L[/H].kind[.stat]" (3.30+'s class,
 * level and hint; without the hint, any). */
void fsc_prio_metric_stem(char *out, size_t cap, int dir, const fsc_prio *p)
{
    const char *d = fsc_ddir_name((fsc_ddir)dir), *lat = p->kind == FSC_LAT_LAT ? "lat" : "clat";
    if (p->high >= 0)
        snprintf(out, cap, "%s.%s", d, fsc_prio_highlow_name(p->high, p->kind));
    else if (p->priohint >= 0)
        snprintf(out, cap, "%s.prio.%d/%d/%d.%s", d, p->prioclass, p->prio, p->priohint, lat);
    else
        snprintf(out, cap, "%s.prio.%d/%d.%s", d, p->prioclass, p->prio, lat);
}

static bool parse_prio(fsc_mspec *s, const char *p, size_t n, int dir)
{
    const char *dot = memchr(p, '.', n);
    size_t kl = dot ? (size_t)(dot - p) : n;
    int key[3] = {-1, -1, -2}, lk = -1;
    fsc_latkind hl_kind;
    int high = fsc_prio_highlow_from(p, kl, &hl_kind);
    if (high >= 0) {
        lk = (int)hl_kind;
    } else {
        if (kl != 4 || memcmp(p, "prio", 4) || !dot)
            return false;
        const char *q = dot + 1, *e = p + n;
        for (int k = 0;;) { /* "1/0." or "1/0/3." */
            if (q == e || !isdigit((unsigned char)*q))
                return false;
            for (key[k] = 0; q < e && isdigit((unsigned char)*q) && key[k] < 10000; q++)
                key[k] = key[k] * 10 + (*q - '0');
            if (q < e && *q == '/' && k < 2) {
                q++;
                k++;
            } else if (q < e && *q == '.' && k >= 1) {
                q++;
                break;
            } else {
                return false;
            }
        }
        dot = memchr(q, '.', (size_t)(e - q));
        kl = (size_t)((dot ? dot : e) - q);
        if ((lk = latkind_from(q, kl)) != FSC_LAT_CLAT && lk != FSC_LAT_LAT)
            return false;
    }
    s->stat = FSC_LS_MEAN;
    if (dot && !lstat_from(dot + 1, (size_t)(p + n - dot - 1), &s->stat, &s->pct))
        return false;
    s->kind = FSC_MK_DIR_LAT;
    s->dir = dir;
    s->prio = true;
    s->prio_high = high;
    s->prio_class = key[0];
    s->prio_level = key[1];
    s->prio_hint = high >= 0 ? -1 : key[2];
    set_lat(s, lk);
    char what[48];
    if (high >= 0)
        snprintf(what, sizeof what, "%s prio", high ? "high" : "low");
    else if (key[2] >= 0)
        snprintf(what, sizeof what, "prio %d/%d/%d", key[0], key[1], key[2]);
    else
        snprintf(what, sizeof what, "prio %d/%d", key[0], key[1]);
    lat_title(s, fsc_ddir_name((fsc_ddir)dir), lk);
    size_t tl = strlen(s->title);
    snprintf(s->title + tl, sizeof s->title - tl, " %s", what);
    return true;
}

/* The entry of d's prios that s names, or NULL. */
static const fsc_prio *prio_find(const fsc_mspec *s, const fsc_dir *d)
{
    for (size_t i = 0; i < d->n_prios; i++) {
        const fsc_prio *p = &d->prios[i];
        if ((int)p->kind == s->latkind && p->high == s->prio_high && p->prioclass == s->prio_class &&
            p->prio == s->prio_level && (s->prio_hint == -2 || p->priohint == s->prio_hint))
            return p;
    }
    return NULL;
}

static const char *field_title(const char *name)
{
    if (!strcmp(name, "iops"))
        return "IOPS";
    if (!strcmp(name, "bw_bytes") || !strcmp(name, "bw"))
        return "BW";
    if (!strcmp(name, "io_bytes"))
        return "io";
    return name;
}

/* A field of fsc_dir ("iops", "bw_mean") for direction dir, or summed when dir < 0. */
static bool parse_dir_field(fsc_mspec *s, const char *p, size_t n, int dir)
{
    /* "bw" alone means bytes/s; fio's own "bw" (KiB/s) stays reachable as read.bw */
    const fsc_field *f = dir < 0 && n == 2 && !memcmp(p, "bw", 2)
                             ? fsc_field_find(fsc_dir_fields, fsc_n_dir_fields, "bw_bytes", 8)
                             : fsc_field_find(fsc_dir_fields, fsc_n_dir_fields, p, n);
    if (!f)
        return false;
    if (dir < 0 && f->unit != FSC_UNIT_IOPS && f->unit != FSC_UNIT_BYTES &&
        f->unit != FSC_UNIT_BYTES_PER_S && f->unit != FSC_UNIT_COUNT)
        return false; /* only additive numbers have a direction-agnostic total */
    s->kind = dir < 0 ? FSC_MK_ALL_FIELD : FSC_MK_DIR_FIELD;
    s->dir = dir;
    s->offset = f->offset;
    /* KiB/s fields are reported in bytes/s like every other bandwidth */
    /* one name, one unit: read.bw is KiB/s here as in the JSON (bw_bytes is bytes/s) */
    s->m.unit = f->unit;
    s->agg = agg_for_unit(f->unit);
    s->m.higher_better = higher_is_better(f->unit);
    make_title(s, dir < 0 ? NULL : fsc_ddir_name((fsc_ddir)dir), field_title(f->name));
    s->scale = 1.0;
    return true;
}

static bool parse_job_level(fsc_mspec *s, const char *p, size_t n)
{
    if (n == 3 && !memcmp(p, "cpu", 3)) {
        s->kind = FSC_MK_CPU;
        s->m.unit = FSC_UNIT_PCT;
        s->agg = FSC_AGG_MEAN;
        make_title(s, NULL, "cpu");
        return true;
    }
    const fsc_field *f = fsc_field_find(fsc_job_fields, fsc_n_job_fields, p, n);
    if (!f)
        return false;
    s->kind = FSC_MK_JOB_FIELD;
    s->offset = f->offset;
    s->m.unit = f->unit;
    s->agg = agg_for_unit(f->unit);
    make_title(s, NULL, !strcmp(f->name, "usr_cpu")   ? "usr cpu"
                        : !strcmp(f->name, "sys_cpu") ? "sys cpu"
                                                      : f->name);
    return true;
}

bool fsc_mspec_parse(const char *name, size_t len, fsc_mspec *s)
{
    memset(s, 0, sizeof *s);
    if (!len || len >= sizeof s->name)
        return false;
    memcpy(s->name, name, len);
    s->m.name = s->name;
    s->m.title = s->title;
    s->dir = -1;
    s->dim = -1;
    s->scale = 1.0;
    for (size_t i = 0; i < FSC_ARRAY_SIZE(text_metrics); i++)
        if (strlen(text_metrics[i].name) == len && !memcmp(text_metrics[i].name, name, len)) {
            s->kind = FSC_MK_TEXT;
            s->text = text_metrics[i].text;
            s->dim = text_metrics[i].dim;
            s->m.text = true;
            make_title(s, NULL, text_metrics[i].title);
            return true;
        }
    if (parse_job_level(s, name, len) || parse_lat(s, name, len, -1) ||
        parse_dir_field(s, name, len, -1) || fsc_ts_mspec_parse(s, name, len))
        return true;
    const char *dot = memchr(name, '.', len);
    if (!dot)
        return false;
    int dir = fsc_ddir_from_name(name, (size_t)(dot - name));
    if (dir < 0)
        return false;
    const char *rest = dot + 1;
    size_t rl = len - (size_t)(rest - name);
    return parse_lat(s, rest, rl, dir) || parse_dir_field(s, rest, rl, dir) || parse_prio(s, rest, rl, dir);
}

bool fsc_list_next(const char **p, const char **item, size_t *len)
{
    if (!**p)
        return false;
    const char *s = *p;
    size_t n = strcspn(s, ",");
    *p = s + n + (s[n] == ',');
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    *item = s;
    *len = n;
    return true;
}

void fsc_mspec_copy(fsc_mspec *dst, const fsc_mspec *src)
{
    *dst = *src;
    dst->m.name = dst->name;
    dst->m.title = dst->title;
}

const char *const *fsc_metric_base_names(size_t *n)
{
    static const char *const names[] = {
        "label", "dir", "rw", "bs", "ioengine", "iodepth", "jobs", "jobname", "fio_version",
        "file", "run", "system", "numjobs", "direct", "workload", "heading", "host", "repeat",
        "iops", "bw", "bw_bytes", "io_bytes", "total_ios", "short_ios", "drop_ios", "lat",
        "clat", "slat", "lat.p99", "clat.p99", "lat.max", "clat.max", "cpu", "usr_cpu",
        "sys_cpu", "ctx", "majf", "minf", "groupid", "error", "job_runtime", "iops_mean",
        "iops_min", "iops_max", "iops_stddev", "read.iops", "write.iops", "read.bw",
        "write.bw", "read.runtime", "read.clat_ns.p99", "write.clat_ns.p99", "read.lat_ns.mean",
        "write.lat_ns.mean", "read.bw_mean", "write.bw_mean",
        /* over time, from log files (timeseries.h: every KIND.ts.STAT) */
        "iops.ts.mean", "iops.ts.cv", "iops.ts.p5", "bw.ts.mean", "bw.ts.cv", "bw.ts.p5",
        "lat.ts.mean", "clat.ts.p99", "ss.attained", "ss.criterion"};
    *n = FSC_ARRAY_SIZE(names);
    return names;
}

bool fsc_metric_lookup(const char *name, fsc_metric *out, fsc_buf *err)
{
    fsc_mspec s;
    if (!fsc_mspec_parse(name, strlen(name), &s)) {
        if (err)
            fsc_buf_printf(err, "unknown metric '%s'", name);
        return false;
    }
    *out = s.m;
    out->name = name;
    out->title = name; /* the readable title lives in a built table's columns */
    return true;
}

void fsc_macc_add(fsc_macc *a, fsc_mval x)
{
    if (!x.set)
        return;
    switch (a->agg) {
    case FSC_AGG_SUM:
        a->v += x.v;
        break;
    case FSC_AGG_MIN:
        if (!a->set || x.v < a->v)
            a->v = x.v;
        break;
    case FSC_AGG_MAX:
        if (!a->set || x.v > a->v)
            a->v = x.v;
        break;
    case FSC_AGG_MEAN:
    case FSC_AGG_WMEAN:
        a->wv += x.v * x.w;
        a->plain += x.v;
        break;
    }
    a->wsum += x.w;
    a->n++;
    a->set = true;
}

fsc_mval fsc_macc_result(const fsc_macc *a)
{
    fsc_mval r = {a->set, a->v, a->wsum};
    if (a->set && a->agg == FSC_AGG_MEAN)
        r.v = a->plain / (double)a->n;
    else if (a->set && a->agg == FSC_AGG_WMEAN)
        r.v = a->wsum > 0 ? a->wv / a->wsum : a->plain / (double)a->n;
    return r;
}

unsigned fsc_job_dirs(const fsc_job *job)
{
    if (job->dir[FSC_DIR_MIXED].present && fsc_dir_has_data(&job->dir[FSC_DIR_MIXED]))
        return 1u << FSC_DIR_MIXED;
    unsigned mask = 0;
    for (int d = FSC_DIR_READ; d <= FSC_DIR_TRIM; d++)
        if (fsc_dir_has_data(&job->dir[d]))
            mask |= 1u << d;
    return mask;
}

static unsigned dirs_with_data(const fsc_job *job)
{
    unsigned mask = 0;
    for (int d = 0; d < FSC_DIR_COUNT; d++)
        if (fsc_dir_has_data(&job->dir[d]))
            mask |= 1u << d;
    return mask;
}

/* The I/Os behind a direction's numbers: total_ios, else the latency sample count,
 * else 0 (callers then fall back to a plain mean). */
static double dir_weight(const fsc_dir *d)
{
    if (d->total_ios.set && d->total_ios.v > 0)
        return d->total_ios.v;
    if (d->lat[FSC_LAT_CLAT].N.set && d->lat[FSC_LAT_CLAT].N.v > 0)
        return d->lat[FSC_LAT_CLAT].N.v;
    if (d->iops.set && d->iops.v > 0)
        return d->iops.v;
    return 0;
}

static fsc_num lat_stat(const fsc_lat *l, fsc_lstat st, double pct)
{
    fsc_num none = {0};
    switch (st) {
    case FSC_LS_MIN:
        return l->min;
    case FSC_LS_MAX:
        return l->max;
    case FSC_LS_MEAN:
        return l->mean;
    case FSC_LS_STDDEV:
        return l->stddev;
    case FSC_LS_N:
        return l->N;
    case FSC_LS_PCT:
        for (size_t i = 0; i < l->n_percentile; i++)
            if (fabs(l->percentile[i].pct - pct) < 1e-6)
                return fsc_num_of(l->percentile[i].ns);
        return none;
    }
    return none;
}

static fsc_mval eval_all_lat(const fsc_mspec *s, const fsc_job *job, unsigned mask)
{
    fsc_mval r = {false, 0, 0};
    double sum = 0, wsum = 0, plain = 0;
    size_t n = 0;
    for (int d = 0; d < FSC_DIR_COUNT; d++) {
        if (!(mask & (1u << d)))
            continue;
        fsc_num v = lat_stat(&job->dir[d].lat[s->latkind], s->stat, s->pct);
        if (!v.set)
            continue;
        double w = dir_weight(&job->dir[d]);
        if (!r.set || (s->agg == FSC_AGG_MIN && v.v < r.v) || (s->agg == FSC_AGG_MAX && v.v > r.v))
            r.v = v.v;
        r.set = true;
        sum += v.v * w;
        wsum += w;
        plain += v.v;
        n++;
    }
    r.w = wsum;
    if (r.set && s->agg == FSC_AGG_SUM)
        r.v = plain;
    else if (r.set && s->agg == FSC_AGG_WMEAN)
        r.v = wsum > 0 ? sum / wsum : plain / (double)n;
    return r;
}

static fsc_mval eval_all_field(const fsc_mspec *s, const fsc_job *job, unsigned mask)
{
    fsc_mval r = {false, 0, 0};
    for (int d = 0; d < FSC_DIR_COUNT; d++) {
        if (!(mask & (1u << d)))
            continue;
        const fsc_num *v = (const fsc_num *)((const char *)&job->dir[d] + s->offset);
        if (!v->set)
            continue;
        r.set = true;
        r.v += v->v;
        r.w += dir_weight(&job->dir[d]);
    }
    return r;
}

fsc_mval fsc_mspec_eval(const fsc_mspec *s, const fsc_job *job, int only)
{
    fsc_mval r = {false, 0, 1};
    unsigned mask = only >= 0 ? (1u << only) & dirs_with_data(job) : fsc_job_dirs(job);
    switch (s->kind) {
    case FSC_MK_TEXT:
        return r;
    case FSC_MK_ALL_FIELD:
        return eval_all_field(s, job, mask);
    case FSC_MK_ALL_LAT:
        return eval_all_lat(s, job, mask);
    case FSC_MK_DIR_FIELD: {
        const fsc_num *v = (const fsc_num *)((const char *)&job->dir[s->dir] + s->offset);
        r.set = v->set;
        r.v = v->v * s->scale;
        r.w = dir_weight(&job->dir[s->dir]);
        return r;
    }
    case FSC_MK_DIR_LAT: {
        /* an unused direction prints zeros: a 0 ns latency would be a lie */
        if (!fsc_dir_has_data(&job->dir[s->dir]))
            return r;
        const fsc_prio *p = s->prio ? prio_find(s, &job->dir[s->dir]) : NULL;
        if (s->prio && !p)
            return r;
        fsc_num v = lat_stat(p ? &p->lat : &job->dir[s->dir].lat[s->latkind], s->stat, s->pct);
        r.set = v.set;
        r.v = v.v;
        r.w = p && p->lat.N.set && p->lat.N.v > 0 ? p->lat.N.v : dir_weight(&job->dir[s->dir]);
        return r;
    }
    case FSC_MK_JOB_FIELD: {
        const fsc_num *v = (const fsc_num *)((const char *)job + s->offset);
        r.set = v->set;
        r.v = v->v;
        return r;
    }
    case FSC_MK_TS:
    case FSC_MK_SS:
        return fsc_ts_mspec_eval(s, job);
    case FSC_MK_CPU:
        r.set = job->usr_cpu.set || job->sys_cpu.set;
        r.v = (job->usr_cpu.set ? job->usr_cpu.v : 0) + (job->sys_cpu.set ? job->sys_cpu.v : 0);
        return r;
    }
    return r;
}

double fsc_bs_bytes(const char *s)
{
    while (*s && !isdigit((unsigned char)*s))
        s++;
    char *end;
    double v = strtod(s, &end);
    if (end == s)
        return NAN;
    switch (tolower((unsigned char)*end)) {
    case 'k': return v * 1024;
    case 'm': return v * 1048576;
    case 'g': return v * 1073741824.0;
    default: return v;
    }
}

/* One spelling for every era and source, so rows group and sort by block size. */
const char *fsc_bs_text(const char *raw, char *tmp, size_t tmp_len)
{
    double b = raw ? fsc_bs_bytes(raw) : NAN;
    if (!raw || isnan(b) || b <= 0 || b != floor(b) || b > 1e15)
        return raw;
    unsigned long long u = (unsigned long long)b;
    if (u % 1073741824ULL == 0)
        snprintf(tmp, tmp_len, "%llug", u / 1073741824ULL);
    else if (u % 1048576ULL == 0)
        snprintf(tmp, tmp_len, "%llum", u / 1048576ULL);
    else if (u % 1024ULL == 0)
        snprintf(tmp, tmp_len, "%lluk", u / 1024ULL);
    else
        snprintf(tmp, tmp_len, "%llu", u);
    return tmp;
}

/* Which of "read,write,trim" block sizes a job of rw uses: a bit each. */
static unsigned bs_dirs(const char *rw)
{
    if (!rw)
        return 7;
    size_t n = strcspn(rw, ":"); /* "randread:8" */
    if ((n == 4 && !memcmp(rw, "read", 4)) || (n == 8 && !memcmp(rw, "randread", 8)))
        return 1;
    if ((n == 5 && !memcmp(rw, "write", 5)) || (n == 9 && !memcmp(rw, "randwrite", 9)))
        return 2;
    if ((n == 4 && !memcmp(rw, "trim", 4)) || (n == 8 && !memcmp(rw, "randtrim", 8)))
        return 4;
    if (n >= 9 && !memcmp(rw + n - 9, "trimwrite", 9))
        return 6;
    return 3; /* rw, readwrite, randrw */
}

/* One piece "4096B" or "4096B-64.0KiB" in fsc_bs_text's spelling ("4096B-4096B":
 * "4k"), appended to out. */
static bool bs_piece(const char *p, size_t n, char *out, size_t cap, size_t *at)
{
    const char *dash = memchr(p, '-', n);
    char num[2][40], tmp[2][40];
    const char *t[2] = {NULL, NULL};
    for (int side = 0; side < (dash ? 2 : 1); side++) {
        const char *a = side ? dash + 1 : p, *b = side || !dash ? p + n : dash;
        if (b - a <= 0 || (size_t)(b - a) >= sizeof num[side])
            return false;
        memcpy(num[side], a, (size_t)(b - a));
        num[side][b - a] = '\0';
        t[side] = fsc_bs_text(num[side], tmp[side], sizeof tmp[side]);
        if (t[side] == num[side] && isnan(fsc_bs_bytes(num[side])))
            return false;
    }
    bool range = t[1] && strcmp(t[0], t[1]);
    int k = snprintf(out + *at, cap - *at, "%s%s%s", t[0], range ? "-" : "", range ? t[1] : "");
    if (k < 0 || (size_t)k >= cap - *at)
        return false;
    *at += (size_t)k;
    return true;
}

const char *fsc_bs_for_rw(const char *raw, const char *rw, char *tmp, size_t tmp_len)
{
    if (!raw || !*raw || tmp_len < 2)
        return raw;
    if (strchr(raw, ':') || strchr(raw, '/'))
        return raw; /* bssplit's "4k/50:64k/50" (or a legacy "4K-4K/64K-64K" description) */
    const char *piece[3];
    size_t len[3], n = 0;
    for (const char *p = raw; n < 3;) {
        piece[n] = p;
        len[n] = strcspn(p, ",");
        n++;
        if (!p[len[n - 1]])
            break;
        p += len[n - 1] + 1;
    }
    /* fio repeats the last size given for the directions after it */
    unsigned dirs = bs_dirs(rw);
    size_t at = 0, first = SIZE_MAX;
    for (size_t d = 0; d < 3; d++) {
        if (!(dirs & (1u << d)))
            continue;
        size_t i = d < n ? d : n - 1;
        if (first != SIZE_MAX && len[i] == len[first] && !memcmp(piece[i], piece[first], len[i]))
            continue; /* the same size again: said once */
        if (first != SIZE_MAX)
            tmp[at++] = ',';
        if (at >= tmp_len - 1 || !bs_piece(piece[i], len[i], tmp, tmp_len, &at))
            return fsc_bs_text(raw, tmp, tmp_len);
        if (first == SIZE_MAX)
            first = i;
    }
    if (first == SIZE_MAX)
        return raw;
    tmp[at] = '\0';
    return tmp;
}

const char *fsc_job_bs_option(const fsc_run *run, const fsc_job *job)
{
    static const char *const keys[][2] = {{"bs", "blocksize"}, {"bsrange", "blocksize_range"}, {"bssplit", NULL}};
    /* the job's own first: a job's bsrange overrides a global bs */
    for (int global = 0; global < (run ? 2 : 1); global++)
        for (size_t i = 0; i < FSC_ARRAY_SIZE(keys); i++)
            for (int k = 0; k < 2 && keys[i][k]; k++) {
                const char *v = global ? fsc_run_global_option(run, keys[i][k]) : fsc_job_option(job, keys[i][k]);
                if (v)
                    return v;
            }
    return NULL;
}

const char *fsc_job_text(const fsc_mspec *s, const fsc_run *run, const fsc_job *job, char *tmp,
                         size_t tmp_len)
{
    switch (s->text) {
    case FSC_MT_RW:
        return fsc_job_option(job, "rw") ? fsc_job_option(job, "rw")
                                         : fsc_job_option(job, "readwrite");
    case FSC_MT_BS:
        return fsc_bs_for_rw(fsc_job_bs_option(NULL, job),
                             fsc_job_option(job, "rw") ? fsc_job_option(job, "rw") : fsc_job_option(job, "readwrite"),
                             tmp, tmp_len);
    case FSC_MT_IOENGINE:
        return fsc_job_option(job, "ioengine");
    case FSC_MT_IODEPTH:
        return fsc_job_option(job, "iodepth");
    case FSC_MT_JOBS:
        if (fsc_job_option(job, "numjobs"))
            return fsc_job_option(job, "numjobs");
        if (!job->jobs.set)
            return NULL;
        snprintf(tmp, tmp_len, "%.0f", job->jobs.v);
        return tmp;
    case FSC_MT_JOBNAME:
        return job->jobname;
    case FSC_MT_FIO_VERSION:
        return run->source.fio_version;
    case FSC_MT_FILE:
        if (!run->source.path)
            return NULL;
        snprintf(tmp, tmp_len, "%s%s%s", run->source.path, run->source.member ? ":" : "",
                 run->source.member ? run->source.member : "");
        return tmp;
    case FSC_MT_RUN:
        return run->id;
    case FSC_MT_TIME:
        return run->source.time;
    case FSC_MT_DATE: { /* "Mon Nov 30 03:57:09 2026": 2026-11-30 */
        const char *t = run->source.time;
        uint64_t key = t && strlen(t) == 24 ? fsc_ctime_key(t) / 1000000 : 0; /* yyyymmdd */
        if (!key)
            return NULL;
        snprintf(tmp, tmp_len, "%04u-%02u-%02u", (unsigned)(key / 10000), (unsigned)(key / 100 % 100),
                 (unsigned)(key % 100));
        return tmp;
    }
    case FSC_MT_LABEL:
    case FSC_MT_DIR:
    case FSC_MT_DIM:
    default:
        return NULL; /* row-level: the builder fills these */
    }
}
